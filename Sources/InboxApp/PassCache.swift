import InboxSync
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Where downloaded wallet passes are kept for the host to open (`open` on macOS) or serve: a
/// directory of the user's own cache, 0700, each pass a 0600 file named by its SHA-256. A file is
/// written under a fresh random name (created exclusively, not following a link), checked as a pass
/// there, then renamed into place, so no other user can read a pass, nothing is written outside the
/// directory, and a file that is not a pass never takes a pass's name.
public struct PassCache: Sendable {
  public let directory: String

  public init(directory: String) {
    self.directory = directory
  }

  /// `$XDG_CACHE_HOME/inbox-rpc/passes`, else `~/.cache/inbox-rpc/passes`; nil without either
  /// (a shared place such as /tmp is never chosen for the user's passes).
  public static func defaultDirectory(environment: Environment) -> String? {
    if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") { return xdg + "/inbox-rpc/passes" }
    guard let home = environment["HOME"], home.hasPrefix("/") else { return nil }
    return home + "/.cache/inbox-rpc/passes"
  }

  /// A pass kept in the cache.
  public struct Kept: Sendable, Hashable {
    public var path: String
    public var size: Int
    public var sha256: String
  }

  /// Writes `bytes`, checks them as a pass (`PassArchive`) and keeps them.
  public func keep(_ bytes: [UInt8]) throws(PassFailure) -> Kept {
    try prepareDirectory()
    guard let sha256 = SHA256.hex(bytes) else {
      throw PassFailure(.cannotStore, "libcrypto cannot be loaded to name the pass by its SHA-256")
    }
    let temporary = directory + "/.download-" + randomHex(bytes: 8)
    try write(bytes, to: temporary)
    if let problem = PassArchive.problem(at: temporary) {
      unlink(temporary)
      throw PassFailure(.notAPass, "the download is not a wallet pass: \(problem)")
    }
    let path = directory + "/" + sha256 + ".pkpass"
    guard rename(temporary, path) == 0 else {
      let failure = SystemError.current("cannot move the pass to \(path)")
      unlink(temporary)
      throw PassFailure(.cannotStore, failure.message)
    }
    return Kept(path: path, size: bytes.count, sha256: sha256)
  }

  /// Creates the directory (0700) when missing; refuses one that is a link, another user's, or that
  /// others may enter. Checked before a download too, so a directory that cannot be used costs no transfer.
  func prepareDirectory() throws(PassFailure) {
    do {
      try Files.createDirectories(directory, mode: 0o700)
    } catch {
      throw PassFailure(.cannotStore, error.message)
    }
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      throw PassFailure(.cannotStore, SystemError.current("cannot read the directory \(directory)").message)
    }
    guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
      throw PassFailure(.cannotStore, "\(directory) is not a directory of this user's (a link, or another user's)")
    }
    if info.st_mode & 0o077 != 0, chmod(directory, 0o700) != 0 {
      throw PassFailure(.cannotStore, SystemError.current("cannot make \(directory) private (chmod 700)").message)
    }
  }

  private func write(_ bytes: [UInt8], to path: String) throws(PassFailure) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
    guard fd >= 0 else { throw PassFailure(.cannotStore, SystemError.current("cannot create \(path)").message) }
    let written = Files.writeAll(fd, bytes)
    let failure = written ? nil : SystemError.current("cannot write \(path)")
    guard close(fd) == 0, written else {
      unlink(path)
      throw PassFailure(.cannotStore, (failure ?? SystemError.current("cannot write \(path)")).message)
    }
  }
}
