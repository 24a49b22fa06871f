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
    let base = try PrivateDirectory.make(in: FileManager.default.temporaryDirectory.path, prefix: "memory-stores.")
    defer { PrivateDirectory.remove(base) }
    let gone = try pidOfAProcessThatHasGone()
    let left = base + "/" + MemoryStoreFile.prefix + "\(gone).abc123"
    let living = base + "/" + MemoryStoreFile.prefix + "\(getppid()).abc123"
    let mine = base + "/" + MemoryStoreFile.prefix + "\(getpid()).abc123"
    let other = base + "/unrelated"
    for directory in [left, living, mine, other] { try Files.createDirectories(directory, mode: 0o700) }
    FileManager.default.createFile(atPath: left + "/inbox.sqlite", contents: Data([1, 2, 3]))
    MemoryStoreFile.removeLeftovers(in: base)
    #expect(!Files.isDirectory(left))
    #expect(Files.isDirectory(living) && Files.isDirectory(mine) && Files.isDirectory(other))
    for directory in [living, mine, other] { PrivateDirectory.remove(directory) }
  }

  @Test func theFirstPlaceThisUserMayWriteIsChosen() throws {
    let runtime = try PrivateDirectory.make(in: FileManager.default.temporaryDirectory.path, prefix: "runtime.")
    defer { PrivateDirectory.remove(runtime) }
    #expect(MemoryStoreFile.place(Environment(["XDG_RUNTIME_DIR": runtime])) == runtime)
    let elsewhere = MemoryStoreFile.place(Environment(["XDG_RUNTIME_DIR": runtime + "/missing", "TMPDIR": runtime]))
    #expect(elsewhere == (access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : runtime))
    #expect(MemoryStoreFile.place(Environment(["XDG_RUNTIME_DIR": "relative"])) != "relative")
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
