import InboxApp
import InboxCore
import InboxStore
import JSON
import JSONRPC

/// `wallet.report {id, outcome, reason?}` -> `{id, outcome, reason, reportedAt, message}`: what became
/// of the Wallet sheet the host presented, as InboxKit's delegate hears it (`didAddWalletPassFor`,
/// `didFailToAddWalletPassFor`; a cancelled sheet is reported by not calling). Recorded with the
/// store, then told to the host as `wallet.reported {id, outcome, reason}`; `added` marks the
/// message read. Refused with `NotAWalletCard` (-32003) on another kind of card.
enum WalletReportMethod: Operation {
  static let name = "wallet.report"
  static let execution: Method.Execution = .write

  static func run(_ params: WalletReportParams, _ context: OperationContext) throws -> JSONValue {
    let report = try context.inbox.reportWalletPass(id: params.id, outcome: params.outcome, reason: params.reason)
    context.report(report.effects)
    context.reporter.walletReported(report.record)
    var json = report.record.json
    json["message"] = report.cardJSON
    return .object(json)
  }
}

extension WalletRecord {
  /// `{id, outcome, reason, reportedAt}`, as `wallet.reported` says it.
  public var json: JSONObject {
    [
      "id": .string(id), "outcome": .string(outcome.rawValue), "reason": reason.map(JSONValue.string) ?? .null,
      "reportedAt": RFC3339.string(fromUnixSeconds: reportedAt).map(JSONValue.string) ?? .null,
    ]
  }
}
