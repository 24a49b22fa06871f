import JSON
import Testing

@testable import JSONRPC

/// Classification of one message (JSON-RPC 2.0 §4-§5), including the ids recovered from invalid ones.
struct IncomingTests {
  static func classify(_ text: String) throws -> Incoming { Incoming(try JSONValue.parse(text)) }

  @Test func requestNotificationAndParams() throws {
    guard
      case .request(let id, let method, let params) = try Self.classify(
        #"{"jsonrpc":"2.0","id":"a","method":"m","params":[1]}"#)
    else {
      Issue.record("not a request")
      return
    }
    #expect(id == "a" && method == "m" && params == [1])
    guard case .notification("n", nil) = try Self.classify(#"{"jsonrpc":"2.0","method":"n","params":null}"#) else {
      Issue.record("null params must read as absent")
      return
    }
    guard case .request(.null, "m", nil) = try Self.classify(#"{"jsonrpc":"2.0","id":null,"method":"m"}"#) else {
      Issue.record("a null id is still a request")
      return
    }
  }

  @Test(arguments: [
    (#"{"id":1}"#, JSONValue.int(1)),
    (#"{"jsonrpc":"2.0","id":[],"method":"m"}"#, JSONValue.null),
    (#"{"jsonrpc":"2.0","id":{},"method":"m"}"#, JSONValue.null),
    (#"{"jsonrpc":"2.1","id":"x","method":"m"}"#, JSONValue.string("x")),
    (#"{"jsonrpc":"2.0","id":2,"method":1}"#, JSONValue.int(2)),
    (#"{"jsonrpc":"2.0","id":3,"method":"m","params":"bar"}"#, JSONValue.int(3)),
    ("null", JSONValue.null),
    ("5", JSONValue.null),
  ])
  func invalidKeepsTheReadableID(_ text: String, _ expectedID: JSONValue) throws {
    guard case .invalid(let id, let error) = try Self.classify(text) else {
      Issue.record("\(text) accepted")
      return
    }
    #expect(id == expectedID)
    #expect(error.code == .invalidRequest)
  }

  @Test func errorFunnel() {
    #expect(RPCError(CancellationError()).code == .requestCancelled)
    #expect(RPCError(RPCError.methodNotFound("x")).data == ["method": "x"])
    struct Unexpected: Error {}
    #expect(RPCError(Unexpected()).code == .internalError)
    #expect(RPCError.invalidParams("payload.buttons[1]", "title required").data?["param"] == "payload.buttons[1]")
  }

  @Test func depthErrorsAreInvalidRequestsAndSyntaxErrorsParseErrors() {
    let deep = Connection.rpcError(for: JSONError(kind: .tooDeep, message: "deep"), depthLimit: 64)
    #expect(deep.code == .invalidRequest)
    let syntax = Connection.rpcError(
      for: JSONError(kind: .syntax, message: "bad", line: 1, column: 2, position: 3), depthLimit: 64)
    #expect(syntax.code == .parseError)
    #expect(syntax.data?["position"] == 3)
  }
}
