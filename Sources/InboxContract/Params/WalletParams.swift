import InboxStore
import JSON
import JSONRPC

/// `wallet.report {id, outcome, reason?}`: `outcome` is `added` or `failed` (the contract's enum).
public struct WalletReportParams: OperationParams, Hashable {
  public var id: String
  public var outcome: WalletRecord.Outcome
  public var reason: String?

  public init(_ params: ParamsReader) throws(RPCError) {
    id = try params.required("id", params.string)
    let word = try params.required("outcome", params.string)
    guard let outcome = WalletRecord.Outcome(rawValue: word) else {
      throw RPCError.invalidParams("outcome", "expected added or failed")
    }
    self.outcome = outcome
    reason = try params.string("reason")
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("id", .string(id))
    out.set("outcome", .string(outcome.rawValue))
    out.set("reason", reason.map(JSONValue.string))
    return out.object
  }
}
