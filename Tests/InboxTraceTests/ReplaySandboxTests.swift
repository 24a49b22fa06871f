import Foundation
import JSON
import Testing

@testable import InboxTrace

/// `replay`'s sandbox: what it refuses on the command line, the private copy of a store, and the
/// child server's command line.
struct ReplaySandboxTests {
  static func sandbox(_ arguments: [String]) throws -> ReplaySandbox {
    try ReplaySandbox.make(arguments).get()
  }

  static func problem(_ arguments: [String]) -> String? {
    guard case .failure(let problem) = ReplaySandbox.make(arguments) else { return nil }
    return problem.description
  }

  /// A directory of its own under the temporary directory, removed by the caller.
  static func directory() throws -> String {
    let path = NSTemporaryDirectory() + "replay-sandbox-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
    return path
  }

  @Test(arguments: ["--token-file", "--application", "--backend-url", "--user-id", "--hwid", "--backend-ca-file"])
  func aCredentialOrBackendSettingIsRefusedByNameOnly(name: String) throws {
    for arguments in [[name, "s3cret"], [name + "=s3cret"]] {
      let problem = try #require(Self.problem(["--log-level", "debug"] + arguments))
      #expect(problem.hasPrefix("\(name): a replay takes no credentials and no backend settings"))
      #expect(!problem.contains("s3cret"))
    }
  }

  @Test func theListenerIsAnHTTPURLOnALoopbackAddress() throws {
    for refused in ["https://127.0.0.1:8080/", "http://example.com/", "ftp://127.0.0.1/"] {
      #expect(
        Self.problem(["--backend-listener", refused]) == "--backend-listener needs an http URL on a loopback address")
    }
    #expect(Self.problem(["--backend-listener"]) != nil)
    let sandbox = try Self.sandbox(["--backend-listener=http://127.0.0.1:8080"])
    #expect(
      sandbox.serverOptions == [
        "--replay-sandbox", "--store", ":memory:", "--backend-url", "http://127.0.0.1:8080/", "--application", "REPLAY",
      ])
  }

  @Test func anInMemoryStoreIsNotCopied() throws {
    #expect(Self.problem(["--store", ""]) == "--store needs a PATH")
    #expect(Self.problem(["--store"]) == "--store needs a PATH")
    var sandbox = try Self.sandbox(["--store", ":memory:", "--sync-interval", "0"])
    try sandbox.prepareStore()
    #expect(sandbox.serverOptions == ["--replay-sandbox", "--store", ":memory:"])
    #expect(sandbox.options == ["--sync-interval", "0"])
    sandbox.remove()
  }

  @Test func theStoreAndItsLogAreCopiedIntoADirectoryRemovedAtTheEnd() throws {
    let original = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: original) }
    try Data("store bytes".utf8).write(to: URL(fileURLWithPath: original + "/inbox.sqlite"))
    try Data("log bytes".utf8).write(to: URL(fileURLWithPath: original + "/inbox.sqlite-wal"))
    var sandbox = try Self.sandbox(["--store=" + original + "/inbox.sqlite"])
    try sandbox.prepareStore()
    let copy = sandbox.serverOptions[2]
    let directory = (copy as NSString).deletingLastPathComponent
    #expect(copy.hasSuffix("/inbox.sqlite") && !copy.hasPrefix(original))
    #expect(try String(contentsOfFile: copy, encoding: .utf8) == "store bytes")
    #expect(try String(contentsOfFile: copy + "-wal", encoding: .utf8) == "log bytes")
    let mode = try FileManager.default.attributesOfItem(atPath: copy)[.posixPermissions] as? Int
    #expect(mode == 0o600)
    // What the server leaves beside the copy goes with it.
    try Data().write(to: URL(fileURLWithPath: directory + "/inbox.sqlite-shm"))
    sandbox.remove()
    #expect(!FileManager.default.fileExists(atPath: directory))
    #expect(FileManager.default.fileExists(atPath: original + "/inbox.sqlite"))
  }

  @Test func aStoreThatIsNotARegularFileIsRefused() throws {
    let original = try Self.directory()
    defer { try? FileManager.default.removeItem(atPath: original) }
    for store in [original, original + "/missing.sqlite"] {
      var sandbox = try Self.sandbox(["--store", store])
      #expect(throws: (any Error).self) { try sandbox.prepareStore() }
      let directory = (sandbox.serverOptions[2] as NSString).deletingLastPathComponent
      sandbox.remove()
      #expect(!FileManager.default.fileExists(atPath: directory))
    }
    var sandbox = try Self.sandbox(["--store", original])
    do {
      try sandbox.prepareStore()
      Issue.record("a directory was copied as a store")
    } catch {
      #expect(error.message == "\(original) is not a regular file (a directory)")
    }
    sandbox.remove()
  }

  /// The plan of a trace of `records` (`{"t", "dir", "frame"}` each).
  static func plan(_ records: [JSONValue]) throws -> ReplayPlan {
    let path = NSTemporaryDirectory() + "replay-\(UUID().uuidString).trace"
    defer { try? FileManager.default.removeItem(atPath: path) }
    try records.map { $0.jsonString + "\n" }.joined().write(toFile: path, atomically: true, encoding: .utf8)
    return try ReplayPlan(path)
  }

  static let ping: JSONValue = [
    "t": 1_764_493_500_123, "dir": "in", "frame": ["jsonrpc": "2.0", "id": 1, "method": "rpc.ping"],
  ]
  static let mcpInitialize: JSONValue = [
    "t": 1_764_493_501_000, "dir": "in",
    "frame": ["jsonrpc": "2.0", "id": 2, "method": "initialize", "params": ["protocolVersion": "2025-06-18"]],
  ]

  @Test func theServerRunsAtTheTracesFirstSecondWithErrorsLoggedOnly() throws {
    let sandbox = try Self.sandbox(["--sync-interval", "0"])
    #expect(
      sandbox.serverArguments(plan: try Self.plan([Self.ping])) == [
        "--replay-sandbox", "--store", ":memory:", "--test-clock", "1764493500", "--log-level", "error",
        "--sync-interval", "0",
      ])
  }

  @Test func theOptionsOwnClockAndLogLevelAreKept() throws {
    let sandbox = try Self.sandbox(["--log-level=debug", "--test-clock", "5"])
    #expect(
      sandbox.serverArguments(plan: try Self.plan([Self.ping])) == [
        "--replay-sandbox", "--store", ":memory:", "--log-level=debug", "--test-clock", "5",
      ])
  }

  @Test func theMCPFaceIsChosenByTheOptionsOrByTheTracesInitialize() throws {
    let named = try Self.sandbox(["mcp"]).serverArguments(plan: try Self.plan([Self.ping]))
    #expect(named.first == "mcp" && named.filter { $0 == "mcp" }.count == 1)
    let traced = try Self.sandbox([]).serverArguments(plan: try Self.plan([Self.ping, Self.mcpInitialize]))
    #expect(
      traced == [
        "mcp", "--replay-sandbox", "--store", ":memory:", "--test-clock", "1764493500", "--log-level", "error",
      ])
    let empty = try Self.sandbox([]).serverArguments(plan: try Self.plan([]))
    #expect(empty == ["--replay-sandbox", "--store", ":memory:", "--log-level", "error"])
  }
}
