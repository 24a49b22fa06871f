import InboxApp
import InboxContract
import JSON
import JSONRPC
import JSONSchema
import Testing

@testable import InboxMCP

/// Every tool's schemas come from the contract and stand alone, without a reference; every resource
/// URI round-trips.
struct ToolSchemaTests {
  static let definitions = ToolCatalog.all.map { $0.definition(in: Contract.document) }

  /// Every `$ref` in `schema`, in document order.
  static func refs(_ node: JSONValue) -> [String] {
    switch node {
    case .object(let object):
      return object.flatMap { member in
        member.key == "$ref" ? [member.value.stringValue ?? ""] : refs(member.value)
      }
    case .array(let items): return items.flatMap(refs)
    default: return []
    }
  }

  @Test(arguments: definitions.map(\.tool.name))
  func schemasStandAlone(name: String) throws {
    let definition = try #require(Self.definitions.first { $0.tool.name == name })
    for key in ["inputSchema", "outputSchema"] {
      let schema = try #require(definition.json[key])
      #expect(schema["type"] == "object", "\(name) \(key)")
      #expect(Self.refs(schema).isEmpty, "\(name) \(key) refers to \(Self.refs(schema))")
    }
  }

  @Test func inputIsTheMethodsParams() throws {
    let tap = try #require(Self.definitions.first { $0.tool.name == "tap_button" })
    #expect(tap.inputSchema["required"] == ["id", "button"])
    #expect(tap.inputSchema["additionalProperties"] == false)
    let lint = try #require(Self.definitions.first { $0.tool.name == "lint_payload" })
    #expect(lint.inputSchema["properties"]?.objectValue?.keys == ["payload", "attributes", "now"])
    #expect(lint.json["outputSchema"]?["required"] == ["payloads"])
    // lint's findings are the command line's (x-command-line-only): the tool never returns them.
    #expect(lint.json["outputSchema"]?["properties"]?["findings"] == nil)
    #expect(lint.json["outputSchema"]?["properties"]?["payloads"] != nil)
  }

  /// The published schema refuses what the method's params contract, which checks the calls, refuses.
  @Test func thePublishedSchemaAndTheParamsContractAgree() throws {
    let tap = try #require(Self.definitions.first { $0.tool.name == "tap_button" })
    let published = SchemaValidator(document: tap.inputSchema)
    let contract = try #require(ParamsContract.forMethod("button.tap"))
    let good: JSONValue = ["id": "a", "button": 0]
    #expect(published.violation(of: good, against: tap.inputSchema, at: "arguments") == nil)
    #expect(throws: Never.self) { try contract.check(Params(good)) }
    for bad: JSONValue in [["id": "a"], ["id": "a", "button": -1], ["id": "a", "button": 0, "extra": true]] {
      #expect(published.violation(of: bad, against: tap.inputSchema, at: "arguments") != nil, "\(bad)")
      #expect(throws: RPCError.self, "\(bad)") { try contract.check(Params(bad)) }
    }
  }

  @Test(arguments: ["plain", "with space", "a/b?c#d", "ünï-cödé", "100%"])
  func messageURIsRoundTrip(id: String) {
    let uri = ResourceURI.message(id)
    #expect(!uri.dropFirst(ResourceURI.messagePrefix.count).contains("/"))
    #expect(ResourceURI.messageID(uri) == id)
    #expect(ResourceURI.isKnown(uri))
  }

  @Test func unknownURIsAreNotResources() {
    for uri in ["inbox://message/", "inbox://message/%zz", "inbox://other", "https://example.com"] {
      #expect(!ResourceURI.isKnown(uri), "\(uri)")
    }
  }
}
