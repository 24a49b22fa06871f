/// A JSON-RPC error code: an open set, so each layer can add its own without touching this file.
public struct ErrorCode: RawRepresentable, Hashable, Sendable {
  public var rawValue: Int
  public init(rawValue: Int) { self.rawValue = rawValue }

  // MARK: - JSON-RPC 2.0

  /// Invalid JSON was received.
  public static let parseError = ErrorCode(rawValue: -32700)
  /// The JSON sent is not a valid Request object (also: frame too large, nesting too deep, batch too large).
  public static let invalidRequest = ErrorCode(rawValue: -32600)
  public static let methodNotFound = ErrorCode(rawValue: -32601)
  public static let invalidParams = ErrorCode(rawValue: -32602)
  public static let internalError = ErrorCode(rawValue: -32603)

  // MARK: - LSP

  /// The request was cancelled by `$/cancelRequest` (or by shutdown) before it completed.
  public static let requestCancelled = ErrorCode(rawValue: -32800)
}
