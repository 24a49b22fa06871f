import JSON

/// Engine-level options the executable passes in.
public struct ServerOptions: Sendable {
  /// Registers the JSON-RPC specification's example methods and test helpers (conformance tests only).
  public var testMethods = false
  /// Attributes in force before any `initialize` or `config.set`.
  public var attributes: JSONObject = ["forceCellKind": .null, "platform": .null, "walletPasses": .null]

  public init() {}
}
