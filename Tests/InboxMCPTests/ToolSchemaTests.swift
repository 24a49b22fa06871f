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

  /// Where an input schema says null or lacks one plain `type`: a property at any depth, or an
  /// array's items.
  static func loose(_ schema: JSONValue, at path: String = "") -> [String] {
    var found: [String] = []
    for property in schema["properties"]?.objectValue ?? [:] {
      let member = property.value
      let here = path.isEmpty ? property.key : "\(path).\(property.key)"
      if member["type"]?.stringValue == nil || member["type"] == "null" { found.append("\(here): type") }
      if member["anyOf"] != nil || member["oneOf"] != nil
        || member["enum"]?.arrayValue?.contains(where: \.isNull) == true
      {
        found.append("\(here): a union or null")
      }
      found += loose(member, at: here)
      if let items = member["items"], items.objectValue != nil {
        found += loose(["properties": ["[]": items]], at: here)
      }
    }
    return found
  }

  /// One shape every agent stack takes: a plain `type` on every property, no null anywhere; the
  /// optional params left out of `required`, and the bounds and enums still there.
  @Test(arguments: definitions.map(\.tool.name))
  func inputsArePlainlyTyped(name: String) throws {
    let definition = try #require(Self.definitions.first { $0.tool.name == name })
    #expect(Self.loose(definition.inputSchema) == [], "\(name)")
  }

  @Test func optionalParamsKeepTheirShapeWithoutNull() throws {
    let feed = try #require(Self.definitions.first { $0.tool.name == "list_feed" })
    let properties = try #require(feed.inputSchema["properties"])
    #expect(feed.inputSchema["required"] == nil)
    #expect(properties["limit"]?["type"] == "integer" && properties["limit"]?["maximum"] == 200)
    #expect(properties["kinds"]?["items"]?["enum"]?.arrayValue?.count == 6)
    #expect(properties["customData"]?["type"] == "object" && properties["customData"]?["maxProperties"] == 8)
    #expect(properties["customData"]?["description"]?.stringValue?.hasPrefix("A tab") == true)
    let report = try #require(Self.definitions.first { $0.tool.name == "report_wallet_pass" })
    #expect(report.inputSchema["properties"]?["outcome"]?["type"] == "string")
    let lint = try #require(Self.definitions.first { $0.tool.name == "lint_payload" })
    #expect(lint.inputSchema["properties"]?["payload"]?["type"] == "object")
    #expect(lint.inputSchema["properties"]?["attributes"]?["properties"]?["forceCellKind"]?["enum"] != nil)
  }

  /// A null the schema no longer shows is still absent to the contract that checks the calls.
  @Test func nullIsStillAcceptedAtRunTime() throws {
    let contract = try #require(ParamsContract.forMethod("feed.list"))
    #expect(throws: Never.self) { try contract.check(Params(["limit": .null, "customData": .null, "cursor": .null])) }
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
