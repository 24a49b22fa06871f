import JSON
import JSONRPC
import Testing

@testable import InboxServer

/// Params are checked once, by the contract read from Schemas/, before an adapter reads them as
/// typed values without checking again: so every method must have a contract, and the bounds the
/// adapters rely on must be the contract's.
struct ParamsContractTests {
  @Test func everyMethodWithParamsHasAContract() {
    for method in InboxServer.methods where method.name != RPCPing.name {
      #expect(ParamsContract.forMethod(method.name) != nil, "\(method.name) has no contract in Schemas/")
    }
  }

  func refusal(_ method: String, _ params: JSONValue) -> RPCError? {
    do {
      try ParamsContract.forMethod(method)?.check(Params(params))
      return nil
    } catch {
      return error
    }
  }

  @Test func boundsAreTheContracts() {
    #expect(refusal("feed.list", ["limit": 200]) == nil)
    #expect(refusal("feed.list", ["limit": 201])?.data?["rule"] == "maximum")
    #expect(refusal("feed.list", ["limit": 0])?.data?["rule"] == "minimum")
    #expect(refusal("button.tap", ["id": "a", "button": 3])?.data?["rule"] == "maximum")
    #expect(refusal("slide.tap", ["id": "a", "slide": -1])?.data?["rule"] == "minimum")
    #expect(refusal("message.get", ["id": ""])?.data?["rule"] == "minLength")
  }

  @Test func typesAndRequiredMembersAreTheContracts() {
    #expect(refusal("message.tap", [:])?.data?["param"] == "id")
    #expect(refusal("message.tap", ["id": 5])?.code == .invalidParams)
    #expect(refusal("message.markRead", ["ids": ["a", 1]])?.code == .invalidParams)
    #expect(refusal("feed.list", ["kinds": ["grid"]])?.code == .invalidParams)
    #expect(refusal("message.render", ["theme": "sepia"])?.code == .invalidParams)
    #expect(refusal("initialize", ["capabilities": ["walletPasses": "yes"]])?.code == .invalidParams)
  }

  @Test func validParamsReadWhatTheContractAccepted() throws {
    let params = ValidParams(checked: Params(["id": "a", "button": 2, "performDefault": false, "cursor": .null]))
    #expect(try params.required("id", params.string) == "a")
    #expect(params.index("button") == 2 && params.bool("performDefault") == false)
    #expect(params.string("cursor") == nil)
  }
}
