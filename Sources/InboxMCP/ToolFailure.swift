import InboxContract
import JSON
import JSONRPC

/// An engine error in words a model can act on: what went wrong, and what to call next.
enum ToolFailure {
  static func explain(_ error: RPCError, tool: String) -> String {
    // The code as the JSON-RPC face answers it, so a host (or a test) can tell refusals apart.
    var text = "\(tool) failed (\(error.code.rawValue)): \(error.message)"
    if let reason = error.data?["reason"]?.stringValue, !error.message.contains(reason) { text += " (\(reason))" }
    switch error.code {
    case .messageNotFound:
      let id = error.data?["id"]?.stringValue.map { " \"\($0)\"" } ?? ""
      text +=
        ". No visible message has the id\(id): it may have been dismissed or have expired. "
        + "Call list_feed for the ids in the feed."
    case .invalidParams:
      text +=
        ". Fix that argument and call \(tool) again: its inputSchema (tools/list) says what each argument takes; "
        + "get_message shows a card's buttons and slides."
    case .notAVideoCard:
      text += ". Only a card whose kind is video has a video to play; get_message shows the kind."
    case .notAWalletCard:
      text += ". Only a card whose kind is wallet has a pass to add; get_message shows the kind."
    case .walletPassFailed:
      text += ". The pass was not added and the message is unchanged; the reason says what the server met."
    case .notAnInboxMessage:
      text += ". The payload is not an inbox message; lint_payload says what each part becomes."
    case .backendNotConfigured:
      text += ". No backend is configured: start the server with --application and --hwid (see inbox-rpc --help)."
    case .backendUnavailable, .backendRefused, .backendMalformedReply:
      text += ". The local feed keeps working and queued changes are kept; try sync_inbox again later."
    default:
      break
    }
    return text.escapingControlCharacters  // an id or a reason may carry payload text
  }
}
