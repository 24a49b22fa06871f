import Foundation
import InboxApp
import InboxCore
import InboxStore
import InboxSync
import JSON
import Posix
import Testing

/// Wallet cards: where a pass is kept (`PassCache`), and what reporting the Wallet sheet records and
/// marks. The download itself, over https, is driven end to end (Tests/EndToEnd/test_wallet_pass.py).
struct WalletUseCaseTests {
  static let wallet: JSONObject = ["displayType": "wallet", "wallet": "https://passes.example.com/p.pkpass"]
  static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../InboxSyncTests/Fixtures").standardizedFileURL.path

  static func bytes(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: URL(fileURLWithPath: fixtures + "/" + name)))
  }

  static func mode(_ path: String) throws -> Int {
    (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? -1
  }

  static func entries(_ directory: String) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
  }

  /// A wallet card's inbox, for a host that can add passes.
  static func walletInbox() throws -> TestInbox {
    let test = try TestInbox()
    _ = try test.inbox.configure(attributes: ["walletPasses": true])
    try test.add("pass", data: wallet)
    try test.add("plain")
    return test
  }

  @Test func aPassIsKeptForTheUserAloneUnderItsDigest() throws {
    let test = try TestInbox()
    let directory = test.directory + "/cache/passes"
    let pass = try Self.bytes("pass.pkpass")
    let kept = try PassCache(directory: directory).keep(pass)
    #expect(kept.path == directory + "/" + kept.sha256 + ".pkpass")
    #expect(kept.size == pass.count && kept.sha256.count == 64)
    #expect(Array(try Data(contentsOf: URL(fileURLWithPath: kept.path))) == pass)
    #expect(try Self.mode(kept.path) == 0o600 && Self.mode(directory) == 0o700)
    #expect(Self.entries(directory) == [kept.sha256 + ".pkpass"])
  }

  @Test(arguments: ["not-a-zip.pkpass", "no-pass-json.zip", "zip-bomb.zip"])
  func aFileThatIsNotAPassLeavesNothing(_ name: String) throws {
    let test = try TestInbox()
    let directory = test.directory + "/passes"
    #expect(throws: PassFailure.self) { try PassCache(directory: directory).keep(try Self.bytes(name)) }
    do {
      _ = try PassCache(directory: directory).keep(try Self.bytes(name))
    } catch let failure as PassFailure {
      #expect(failure.code == .notAPass)
    }
    #expect(Self.entries(directory) == [])
  }

  @Test func aDirectoryOthersCouldReadIsMadePrivateAndALinkIsRefused() throws {
    let test = try TestInbox()
    let open = test.directory + "/open"
    try FileManager.default.createDirectory(
      atPath: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
    _ = try PassCache(directory: open).keep(try Self.bytes("pass.pkpass"))
    #expect(try Self.mode(open) == 0o700)

    let link = test.directory + "/link"
    try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: open)
    do {
      _ = try PassCache(directory: link).keep(try Self.bytes("pass.pkpass"))
      Issue.record("a link was written through")
    } catch let failure as PassFailure {
      #expect(failure.code == .cannotStore)
    }
  }

  @Test func theCacheDirectoryComesFromXDGOrHome() {
    #expect(
      PassCache.defaultDirectory(environment: Environment(["XDG_CACHE_HOME": "/x", "HOME": "/h"]))
        == "/x/inbox-rpc/passes")
    #expect(
      PassCache.defaultDirectory(environment: Environment(["XDG_CACHE_HOME": "rel", "HOME": "/h"]))
        == "/h/.cache/inbox-rpc/passes")
    #expect(PassCache.defaultDirectory(environment: Environment([:])) == nil)
  }

  @Test func withoutACacheDirectoryADownloadIsRefusedAndNothingChanges() throws {
    let test = try Self.walletInbox()
    do {
      _ = try test.inbox.downloadWalletPass(id: "pass", isCancelled: { false }, progress: { _ in })
      Issue.record("downloaded without a cache directory")
    } catch let failure as PassFailure {
      #expect(failure.code == .disabled)
    }
    #expect(try test.inbox.card(id: "pass").card.read == false)
  }

  @Test func onlyAWalletCardHasAPass() throws {
    let test = try Self.walletInbox()
    #expect(throws: InboxError.wrongKind(id: "plain", expected: .wallet, kind: "classic", degradation: nil)) {
      try test.inbox.downloadWalletPass(id: "plain", isCancelled: { false }, progress: { _ in })
    }
    #expect(throws: InboxError.wrongKind(id: "plain", expected: .wallet, kind: "classic", degradation: nil)) {
      try test.inbox.reportWalletPass(id: "plain", outcome: .added, reason: nil)
    }
    #expect(throws: InboxError.messageNotFound(id: "gone")) {
      try test.inbox.reportWalletPass(id: "gone", outcome: .added, reason: nil)
    }
  }

  @Test func aFailedSheetIsRecordedAndAnAddedOneMarksRead() throws {
    let test = try Self.walletInbox()
    let failed = try test.inbox.reportWalletPass(id: "pass", outcome: .failed, reason: "no room")
    #expect(failed.record == WalletRecord(id: "pass", outcome: .failed, reason: "no room", reportedAt: TestInbox.now))
    #expect(failed.card.read == false && failed.effects.changes.isEmpty)
    #expect(try test.store.walletRecord(id: "pass") == failed.record)

    let added = try test.inbox.reportWalletPass(id: "pass", outcome: .added, reason: "ignored")
    #expect(added.record.reason == nil && added.card.read)
    #expect(added.effects.changes.map(\.reason) == [.read])
    #expect(try test.store.walletRecord(id: "pass")?.outcome == .added)
  }
}
