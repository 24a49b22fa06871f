import InboxCore
import InboxStore
import JSON
import JSONRPC

/// The server's application error codes (JSON-RPC's implementation-defined range), each with a
/// stable `data` object; Schemas/openrpc.json lists them per method.
extension ErrorCode {
  /// No visible message has this id (unknown, dismissed or expired). `data: {id}`.
  static let messageNotFound = ErrorCode(rawValue: -32001)
  /// The payload is not an inbox message; nothing was stored. `data: {reason, code}`.
  static let notAnInboxMessage = ErrorCode(rawValue: -32010)
  /// The store failed (busy, damaged, disk full). `data: {kind, message}`.
  static let storeFailure = ErrorCode(rawValue: -32020)
}

extension RPCError {
  static func messageNotFound(_ id: String) -> RPCError {
    RPCError(.messageNotFound, "Message not found", data: ["id": .string(id)])
  }
}

extension IngestError: RPCErrorConvertible {
  public var rpcError: RPCError {
    RPCError(.notAnInboxMessage, "Not an inbox message", data: ["reason": .string(reason), "code": .string(code)])
  }
}

extension StoreError: RPCErrorConvertible {
  public var rpcError: RPCError {
    RPCError(.storeFailure, "Store failure", data: ["kind": .string(kind.rawValue), "message": .string(message)])
  }
}
