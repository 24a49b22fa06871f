/// The server's name and version, as `initialize` and `--version` report them.
public enum ServerInfo {
  public static let name = "inbox-rpc"
  public static let version = "0.1.0"
  /// The version of the RPC contract (Schemas/openrpc.json `info.version`).
  public static let protocolVersion = "1.0"
}
