import Foundation
import JSON
import Testing

@testable import InboxContract

/// Every request of Schemas/examples decodes into its method's params type, and the typed value
/// writes back the params the example sent: nothing a host sends is lost or misread on the way in.
struct ExampleParamsTests {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Schemas/examples").standardized

  /// `(method, example name, params)` for every example file.
  static let examples: [(String, String, JSONObject)] = {
    let files = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return files.sorted().filter { $0.hasSuffix(".json") }.flatMap { file -> [(String, String, JSONObject)] in
      let method = String(file.dropLast(".json".count))
      guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(file).path),
        let list = try? JSONValue.parse(bytes: [UInt8](data), options: JSONReadOptions(maxDepth: 256)).arrayValue
      else { return [(method, "unreadable", [:])] }
      return list.map { (method, $0["name"]?.stringValue ?? "?", $0["params"]?.objectValue ?? [:]) }
    }
  }()

  @Test func everyMethodHasExamples() {
    #expect(Set(Self.examples.map(\.0)) == Set(Operations.paramsTypes.keys))
  }

  @Test(arguments: examples.indices)
  func exampleRoundTrips(index: Int) throws {
    let (method, name, params) = Self.examples[index]
    let decode = try #require(Operations.paramsTypes[method], "\(method) has no params type")
    let decoded = try decode(params)
    #expect(decoded.json == params, "\(method) \(name)")
    #expect(try decode(decoded.json).json == decoded.json, "\(method) \(name)")
  }
}
