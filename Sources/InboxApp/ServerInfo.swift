import InboxCore

/// The server's name and version, as `initialize` and `--version` report them.
public enum ServerInfo {
  public static let name = "inbox-rpc"
  /// The release number: the file VERSION at the top of the checkout, embedded at build time, so the
  /// binary, the Debian package, the Python wheel and `rpc.discover`'s `info.version` say the same.
  public static let version = String(decoding: PackageResources.VERSION, as: UTF8.self).trimmingWhitespace()
  /// The version of the RPC contract `initialize` reports: it changes when a method's shape does.
  public static let protocolVersion = "1.0"
}
