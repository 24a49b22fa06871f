import InboxApp
import JSON
import Testing

@testable import InboxMCP

/// What each revision is spared, which tools a selection offers, and a catalog with nothing missing.
struct RevisionTests {
  static let tool: JSONValue = [
    "name": "t", "title": "T", "description": "d", "inputSchema": ["type": "object"],
    "outputSchema": ["type": "object"],
  ]

  @Test func revision20250326GetsNoTitlesAndNoStructuredOutput() {
    let listed = Downlevel.shaped("tools/list", ["tools": [Self.tool]], for: "2025-03-26")
    #expect(
      listed["tools"]?.arrayValue?.first?["title"] == nil && listed["tools"]?.arrayValue?.first?["outputSchema"] == nil)
    #expect(
      listed["tools"]?.arrayValue?.first?["name"] == "t" && listed["tools"]?.arrayValue?.first?["inputSchema"] != nil)
    let called = Downlevel.shaped(
      "tools/call", ["content": [], "structuredContent": [:], "isError": false], for: "2025-03-26")
    #expect(called["structuredContent"] == nil && called["isError"] == false)
    for method in ["resources/list", "prompts/list"] {
      let member = method == "prompts/list" ? "prompts" : "resources"
      let shaped = Downlevel.shaped(method, [member: [["name": "n", "title": "T"]]], for: "2025-03-26")
      #expect(shaped[member]?.arrayValue?.first?["title"] == nil, "\(method)")
    }
    #expect(Downlevel.serverInfo(Handshake.serverInfo, for: "2025-03-26")["title"] == nil)
  }

  @Test func revision20241105GetsNoToolAnnotationsAndNoProgressMessage() {
    var tool = Self.tool.objectValue ?? [:]
    tool["annotations"] = ["readOnlyHint": true]
    let listed = Downlevel.shaped("tools/list", ["tools": [.object(tool)]], for: "2024-11-05")
    let shaped = listed["tools"]?.arrayValue?.first
    #expect(shaped?["annotations"] == nil && shaped?["title"] == nil && shaped?["outputSchema"] == nil)
    #expect(
      Downlevel.shaped("tools/list", ["tools": [.object(tool)]], for: "2025-03-26")["tools"]?.arrayValue?.first?[
        "annotations"] != nil)
    let progress: JSONValue = ["progressToken": 1, "progress": 2, "message": "fetch"]
    #expect(
      Downlevel.notification("notifications/progress", progress, for: "2024-11-05") == [
        "progressToken": 1, "progress": 2,
      ])
    #expect(Downlevel.notification("notifications/progress", progress, for: "2025-03-26") == progress)
    let log: JSONValue = ["level": "warning", "message": "kept"]
    #expect(Downlevel.notification("notifications/message", log, for: "2024-11-05") == log)
  }

  @Test(arguments: ["2025-06-18", "2025-11-25", "2026-07-28"])
  func newerRevisionsGetEverything(revision: String) {
    let listed: JSONValue = ["tools": [Self.tool]]
    #expect(Downlevel.shaped("tools/list", listed, for: revision) == listed)
    #expect(Downlevel.serverInfo(Handshake.serverInfo, for: revision)["title"] != nil)
  }

  @Test func inputErrorsAreResultsFrom20251125On() {
    #expect(!Revision.Features("2025-03-26").inputErrorsAsResults)
    #expect(!Revision.Features("2025-06-18").inputErrorsAsResults)
    #expect(Revision.Features("2025-11-25").inputErrorsAsResults)
    #expect(Revision.Features("2026-07-28").inputErrorsAsResults)
  }

  @Test func aSelectionOffersWhatItSaysAndSaysWhyNot() throws {
    let dismiss = try #require(ToolCatalog.all.first { $0.name == "dismiss_message" })
    let list = try #require(ToolCatalog.all.first { $0.name == "list_feed" })
    #expect(ToolSelection().offers(dismiss) && ToolSelection().summary == nil)
    let readOnly = ToolSelection(readOnly: true)
    #expect(readOnly.offers(list) && !readOnly.offers(dismiss))
    #expect(readOnly.refusal(of: dismiss)?.contains("--read-only") == true)
    let named = ToolSelection(names: ["list_feed"])
    #expect(named.offers(list) && named.refusal(of: dismiss)?.contains("--tools list_feed") == true)
    #expect(ToolSelection(names: ["list_feed", "nope"]).unknownNames == ["nope"])
  }

  @Test func everyToolOfTheContractHasItsTextAndItsMethod() {
    let entries = (Contract.document["methods"]?.arrayValue ?? []).flatMap { $0["x-mcp-tools"]?.arrayValue ?? [] }
    #expect(ToolCatalog.all.map(\.name) == entries.compactMap { $0["name"]?.stringValue })
    for tool in ToolCatalog.all {
      #expect(ToolCatalog.texts[tool.name] != nil, "\(tool.name) reads as raw JSON: add it to ToolCatalog.texts")
      #expect(!tool.title.isEmpty && !tool.description.isEmpty && !tool.summary.isEmpty, "\(tool.name)")
      #expect(
        Contract.document["methods"]?.arrayValue?.contains { $0["name"]?.stringValue == tool.method } == true,
        "\(tool.name)")
    }
  }
}
