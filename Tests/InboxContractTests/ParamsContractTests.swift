import JSON
import JSONRPC
import Testing

@testable import InboxContract

/// Params are checked once, by the contract read from Schemas/, before the operation decodes them
/// into its typed params: so every method must have a contract, and the bounds the typed params
/// rely on must be the contract's.
struct ParamsContractTests {
  @Test func everyMethodWithParamsHasAContract() {
    for name in Operations.paramsTypes.keys where name != "rpc.ping" && name != "shutdown" {
      #expect(ParamsContract.forMethod(name) != nil, "\(name) has no contract in Schemas/")
    }
  }

  @Test func aNullOptionalIsAbsentAndANullRequiredIsMissing() {
    #expect(refusal("feed.list", ["cursor": .null, "limit": .null, "kinds": .null, "unreadOnly": .null]) == nil)
    #expect(refusal("message.get", ["id": .null])?.data?["param"] == "id")
    #expect(refusal("button.tap", ["id": "a", "button": .null])?.data?["reason"] == "required")
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

  @Test func typedParamsReadWhatTheContractAccepted() throws {
    let tap = try ButtonTapParams(ParamsReader(["id": "a", "button": 2, "performDefault": .null]))
    #expect(tap.id == "a" && tap.button == 2 && tap.performDefault == nil)
    let page = try FeedListParams(ParamsReader(["cursor": .null, "limit": 5, "kinds": ["classic", "video"]]))
    #expect(page.page.cursor == nil && page.page.limit == 5 && page.filter.kinds == [.classic, .video])
    #expect(page.json == ["limit": 5, "kinds": ["classic", "video"]])
  }
}
