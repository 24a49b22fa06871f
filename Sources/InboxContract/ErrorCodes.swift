import InboxApp
import InboxCore
import InboxStore
import InboxSync
import JSON
import JSONRPC

/// The inbox's application error codes, by name, for both faces (JSON-RPC's implementation-defined range), each with a
/// stable `data` object; Schemas/openrpc.json lists them per method.
extension ErrorCode {
  /// No visible message has this id (unknown, dismissed or expired). `data: {id}`.
  public static let messageNotFound = ErrorCode(rawValue: -32001)
  /// The card has nothing to play: it renders as another kind than video. `data: {id, kind, degradation}`.
  public static let notAVideoCard = ErrorCode(rawValue: -32002)
  /// The card has no pass to add: it renders as another kind than wallet. `data: {id, kind, degradation}`.
  public static let notAWalletCard = ErrorCode(rawValue: -32003)
  /// The wallet pass could not be downloaded or kept. `data: {id, code, reason, httpStatus?}`.
  public static let walletPassFailed = ErrorCode(rawValue: -32004)
  /// A swipe or a pull while the attribute that allows it is off; nothing changed. `data: {gesture, attribute}`.
  public static let gestureDisabled = ErrorCode(rawValue: -32005)
  /// The payload is not an inbox message; nothing was stored. `data: {reason, code}`.
  public static let notAnInboxMessage = ErrorCode(rawValue: -32010)
  /// The store failed (busy, damaged, disk full). `data: {kind, message}`.
  public static let storeFailure = ErrorCode(rawValue: -32020)
  /// `feed.changes` cannot resume from the cursor: the journal no longer holds the changes after
  /// it (or it is another store's). List the feed again, then take a new cursor. `data: {reason}`.
  public static let cursorTooOld = ErrorCode(rawValue: -32021)

  // MARK: - Sync (docs/sync.md#errors); the local feed keeps working whichever of these a sync meets.

  /// The backend could not be reached or stopped answering: connection refused, DNS or TLS failure,
  /// timeout, connection closed mid-body. `data: {method, reason, pushed, pending}`.
  public static let backendUnavailable = ErrorCode(rawValue: -32030)
  /// The backend answered with an HTTP status other than 200, or a `status_code` other than 200.
  /// `data: {method, httpStatus, statusCode, statusMessage, location?, pushed, pending}`.
  public static let backendRefused = ErrorCode(rawValue: -32031)
  /// The reply was HTTP 200 but not the contract's shape (empty, not JSON, a member of the wrong type).
  /// `data: {method, path, reason, pushed, pending}`; `path` is a JSON path into the reply.
  public static let backendMalformedReply = ErrorCode(rawValue: -32032)
  /// No application code is configured. `data: {missing}`.
  public static let backendNotConfigured = ErrorCode(rawValue: -32033)
}

extension InboxError: RPCErrorConvertible {
  public var rpcError: RPCError {
    switch self {
    case .messageNotFound(let id): RPCError(.messageNotFound, "Message not found", data: ["id": .string(id)])
    case .invalidArgument(let argument, let reason): RPCError.invalidParams(argument, reason)
    case .wrongKind(let id, let expected, let kind, let degradation):
      RPCError(
        expected == .wallet ? .notAWalletCard : .notAVideoCard, "Not a \(expected) card",
        data: ["id": .string(id), "kind": .string(kind), "degradation": degradation.map(JSONValue.string) ?? .null])
    case .gestureDisabled(let gesture):
      RPCError(
        .gestureDisabled, "Gesture disabled",
        data: ["gesture": .string(gesture.rawValue), "attribute": .string(gesture.attribute)])
    }
  }
}

extension JournalError: RPCErrorConvertible {
  public var rpcError: RPCError {
    switch self {
    case .tooOld(let since, let oldest):
      RPCError(
        .cursorTooOld, "Cursor too old: list the feed again",
        data: [
          "reason": .string(
            oldest < 0
              ? "the cursor is another store's"
              : "the journal keeps the changes after \(oldest) (the latest \(Journal.kept)); the cursor is at \(since)")
        ])
    }
  }
}

/// A pass download that failed, for the message `id`: `WalletPassFailed`, or -32800 when cancelled.
public struct WalletPassError: Error, RPCErrorConvertible {
  public var id: String
  public var failure: PassFailure

  public var rpcError: RPCError {
    guard failure.code != .cancelled else { return .cancelled }
    var data: JSONObject = [
      "id": .string(id), "code": .string(failure.code.rawValue), "reason": .string(failure.reason),
    ]
    if let status = failure.httpStatus { data["httpStatus"] = .int(Int64(status)) }
    return RPCError(.walletPassFailed, "Wallet pass failed", data: .object(data))
  }
}

extension BackendSettings.PatchError: RPCErrorConvertible {
  public var rpcError: RPCError { .invalidParams(path, reason) }
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

extension SyncError: RPCErrorConvertible {
  public var rpcError: RPCError {
    switch self {
    case .notConfigured(let missing):
      return RPCError(
        .backendNotConfigured, "Backend not configured",
        data: [
          "missing": .array(missing.map(JSONValue.string)),
          "reason": "set the application code (--application, INBOX_RPC_APPLICATION or config.set backend)",
        ])
    case .unavailable(let method, let reason):
      return RPCError(
        .backendUnavailable, "Backend unavailable", data: ["method": .string(method), "reason": .string(reason)])
    case .refused(let method, let httpStatus, let statusCode, let statusMessage, let location):
      var data: JSONObject = [
        "method": .string(method), "httpStatus": .int(Int64(httpStatus)),
        "statusCode": statusCode.map(JSONValue.int) ?? .null,
        "statusMessage": statusMessage.map(JSONValue.string) ?? .null,
      ]
      if let location { data["location"] = .string(location) }
      return RPCError(.backendRefused, "Backend refused the request", data: .object(data))
    case .malformedReply(let method, let path, let reason):
      return RPCError(
        .backendMalformedReply, "Malformed backend reply",
        data: ["method": .string(method), "path": .string(path), "reason": .string(reason)])
    case .cancelled:
      return .cancelled
    case .store(let error):
      return error.rpcError
    }
  }
}

extension SyncFailure: RPCErrorConvertible {
  /// The error's own code and data, plus what the sync did before failing (`pushed`, `pending`).
  public var rpcError: RPCError {
    var rpc = error.rpcError
    guard rpc.code != .requestCancelled, case .object(var data)? = rpc.data else { return rpc }
    data["pushed"] = .int(Int64(partial.pushed))
    data["pending"] = .int(Int64(partial.pending))
    rpc.data = .object(data)
    return rpc
  }
}
