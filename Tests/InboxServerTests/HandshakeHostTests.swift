import InboxContract
import JSON
import JSONRPC
import Testing

@testable import InboxServer

/// `initialize` tells its hosts apart by the members only each kind sends, and answers each in a
/// shape it accepts.
struct HandshakeHostTests {
  static func host(_ params: JSONValue) -> HandshakeHost {
    // The params of these hosts read as `initialize`'s typed params do: nothing here can fail.
    HandshakeHost(try! InitializeParams(ParamsReader(params.objectValue ?? [:])))
  }

  @Test func eachKindOfHostIsKnownByWhatOnlyItSends() {
    #expect(Self.host(["processId": .null, "rootUri": .null, "capabilities": [:]]) == .lsp)
    #expect(Self.host(["processId": 4242, "clientInfo": ["name": "Eglot"]]) == .lsp)
    #expect(Self.host(["protocolVersion": "2025-06-18", "clientInfo": ["name": "x"]]) == .mcp(revision: "2025-06-18"))
    #expect(Self.host(["protocolVersion": "2025-11-25", "processId": 1]) == .mcp(revision: "2025-11-25"))
    for inbox: JSONValue in [[:], ["client": ["name": "shell"], "platform": "ios"], ["protocolVersion": "1.0"]] {
      #expect(Self.host(inbox) == .inbox, "\(inbox.jsonString)")
    }
  }

  @Test func anLSPClientGetsCapabilitiesAndServerInfoAlone() {
    let reply = HandshakeHost.lsp.reply(attributes: [:])
    #expect(reply.objectValue.map { Set($0.map(\.key)) } == ["capabilities", "serverInfo"])
    #expect(reply["capabilities"]?["experimental"]?["inbox"]?["protocolVersion"] == "1.0")
  }

  @Test func anInboxHostAlsoFindsTheHandshakeAtTheTopLevel() throws {
    let reply = HandshakeHost.inbox.reply(attributes: ["unreadFirst": false])
    let inbox = try #require(reply["capabilities"]?["experimental"]?["inbox"]?.objectValue)
    for member in inbox { #expect(reply[member.key] == member.value, "\(member.key)") }
    #expect(reply["attributes"] == ["unreadFirst": false])
  }

  @Test func theMCPRefusalNamesTheCommandThatSpeaksMCP() {
    let error = HandshakeHost.mcpRefusal(revision: "2025-06-18")
    #expect(error.code.rawValue == -32040 && error.message.contains("inbox-rpc mcp"))
    #expect(error.data?["reason"]?.stringValue?.contains("\"2025-06-18\"") == true)
  }
}
