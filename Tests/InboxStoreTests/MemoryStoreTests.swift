import Dispatch
import Foundation
import JSON
import Posix
import Synchronization
import Testing

@testable import InboxStore

/// A store opened as `:memory:` is a file of its own in a private directory: reads have
/// connections of their own beside the writer, the directory goes when the store closes, and one a
/// killed process left is removed by the next in-memory store.
struct MemoryStoreTests {
  @Test func aReadIsAnsweredWhileAWriteHoldsTheWriter() throws {
    let store = try InboxStore.openInMemory()
    defer { try? store.close() }
    try store.setSetting("k", .int(1))
    let holder = try HeldWriter(store)
    defer { holder.letGo() }
    // On another thread, so a read that waited for the write would be caught, not hang the test.
    let answer = Mutex<JSONValueBox?>(nil)
    let answered = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      answer.withLock { $0 = JSONValueBox(value: try? store.setting("k")) }
      answered.signal()
    }
    #expect(answered.wait(timeout: .now() + 60) == .success, "the read waited for the write")
    #expect(answer.withLock { $0?.value } == .int(1))
  }

  @Test func theDirectoryIsPrivateAndGoesWithTheStore() throws {
    let store = try InboxStore.openInMemory()
    let directory = try #require(store.memoryDirectory)
    var status = stat()
    #expect(stat(directory, &status) == 0 && status.st_mode & 0o777 == 0o700)
    #expect(stat(directory + "/inbox.sqlite", &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(status.st_uid == getuid())
    try store.close()
    #expect(!Files.isDirectory(directory))
  }

  @Test func aDirectoryLeftByAProcessThatHasGoneIsRemoved() throws {
    let base = try scratch("memory-stores.")
    defer { PrivateDirectory.remove(base) }
    let gone = try pidOfAProcessThatHasGone()
    let left = base + "/" + MemoryStoreFile.prefix + "\(gone).abc123"
    let living = base + "/" + MemoryStoreFile.prefix + "\(getppid()).abc123"
    let mine = base + "/" + MemoryStoreFile.prefix + "\(getpid()).abc123"
    let other = base + "/unrelated"
    for directory in [left, living, mine, other] { try Files.createDirectories(directory, mode: 0o700) }
    FileManager.default.createFile(atPath: left + "/inbox.sqlite", contents: Data([1, 2, 3]))
    try withOpenDirectory(base) { MemoryStoreFile.removeLeftovers(in: $0, at: base) }
    #expect(!Files.isDirectory(left))
    #expect(Files.isDirectory(living) && Files.isDirectory(mine) && Files.isDirectory(other))
    for directory in [living, mine, other] { PrivateDirectory.remove(directory) }
  }

  @Test func aLinkNamedAsALeftoverIsNotFollowed() throws {
    let base = try scratch("memory-stores.")
    defer { PrivateDirectory.remove(base) }
    let victim = try victimDirectory()
    defer { PrivateDirectory.remove(victim) }
    let link = base + "/" + MemoryStoreFile.prefix + "\(try pidOfAProcessThatHasGone()).abc123"
    #expect(symlink(victim, link) == 0)
    try withOpenDirectory(base) { MemoryStoreFile.removeLeftovers(in: $0, at: base) }
    #expect(Files.exists(victim + "/precious"))
    unlink(link)
  }

  @Test func aDirectoryReplacedByALinkIsNotFollowedAtClose() throws {
    let runtime = try scratch("runtime.")
    defer { PrivateDirectory.remove(runtime) }
    let victim = try victimDirectory()
    defer { PrivateDirectory.remove(victim) }
    let warnings = Mutex<[String]>([])
    let file = try MemoryStoreFile.make(
      image: EmptyStore.image, environment: Environment(["XDG_RUNTIME_DIR": runtime]),
      warn: { line in warnings.withLock { $0.append(line) } })
    #expect(file.directory.path.hasPrefix(runtime + "/"))
    let movedTo = runtime + "/moved"
    #expect(rename(file.directory.path, movedTo) == 0)
    #expect(symlink(victim, file.directory.path) == 0)
    close(file.fd)
    file.remove()
    #expect(Files.exists(victim + "/precious"), "the link put in the directory's place was followed")
    #expect(!Files.exists(movedTo + "/inbox.sqlite"), "the store's own file stays")
    #expect(warnings.withLock { $0.contains { $0.contains(file.directory.path) && $0.contains("moved or replaced") } })
    unlink(file.directory.path)
    rmdir(movedTo)
  }

  @Test func aPlaceOthersCouldRenameInIsSkippedAndNoneLeftIsRefused() throws {
    let writable = try scratch("runtime.")
    defer { PrivateDirectory.remove(writable) }
    let sticky = try scratch("sticky.")
    defer { PrivateDirectory.remove(sticky) }
    #expect(chmod(writable, 0o777) == 0 && chmod(sticky, 0o1777) == 0)
    let warnings = Mutex<[String]>([])
    let chosen = try MemoryStoreFile.place([writable, sticky]) { line in warnings.withLock { $0.append(line) } }
    close(chosen.fd)
    #expect(chosen.path == sticky)
    #expect(warnings.withLock { $0.contains { $0.contains(writable) && $0.contains("no sticky bit") } })
    let refusal = #expect(throws: StoreError.self) { try MemoryStoreFile.place([writable]) { _ in } }
    #expect(refusal?.kind == .cannotOpen)
    #expect(refusal?.message.contains("\(writable) can be written by other users and has no sticky bit") == true)
  }

  @Test func theFirstPlaceThisUserMayWriteIsChosen() throws {
    let runtime = try scratch("runtime.")
    defer { PrivateDirectory.remove(runtime) }
    #expect(MemoryStoreFile.candidates(Environment(["XDG_RUNTIME_DIR": runtime])).first == runtime)
    let chosen = try MemoryStoreFile.place([runtime + "/missing", runtime]) { _ in }
    close(chosen.fd)
    #expect(chosen.path == runtime)
    #expect(!MemoryStoreFile.candidates(Environment(["XDG_RUNTIME_DIR": "relative"])).contains("relative"))
  }

  /// A private directory of its own under the temporary directory.
  private func scratch(_ prefix: String) throws -> String {
    try PrivateDirectory.make(in: FileManager.default.temporaryDirectory.path, prefix: prefix)
  }

  /// Someone else's directory, as far as a store is concerned, with a file no clean-up may remove.
  private func victimDirectory() throws -> String {
    let victim = try scratch("victim.")
    #expect(FileManager.default.createFile(atPath: victim + "/precious", contents: Data([1])))
    return victim
  }

  private func withOpenDirectory(_ path: String, _ body: (Int32) -> Void) throws {
    let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    try #require(fd >= 0)
    defer { close(fd) }
    body(fd)
  }

  /// The number of a process that has exited and been reaped.
  private func pidOfAProcessThatHasGone() throws -> pid_t {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: "/bin/true")
    try child.run()
    child.waitUntilExit()
    return child.processIdentifier
  }
}

/// A setting read on another thread, carried back.
private struct JSONValueBox: Sendable {
  let value: JSONValue?
}
