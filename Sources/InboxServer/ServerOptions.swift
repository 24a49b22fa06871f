import InboxApp

/// What the executable asks of the JSON-RPC face: the inbox's options, and the face's own.
public struct ServerOptions: Sendable {
  /// Registers the JSON-RPC specification's example methods and test helpers (conformance tests only).
  public var testMethods = false
  public var inbox = InboxOptions()

  public init() {}
}
