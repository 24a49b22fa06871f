import JSON
import JSONRPC

/// `message.markRead {ids}` -> `{changed}`: how many became read. Unknown, dismissed and already
/// read ids change nothing (bulk calls are lenient); they are listed in `unchanged`.
enum MessageMarkRead: RPCMethod {
  static let name = "message.markRead"
  /// A write: on the serial lane, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .serial

  static func handle(_ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    guard let items = try request.params.required("ids").arrayValue else {
      throw RPCError.invalidParams("ids", "expected an array of message ids")
    }
    var ids: [String] = []
    for (index, item) in items.enumerated() {
      guard let id = item.stringValue else {
        throw RPCError.invalidParams("ids[\(index)]", "expected a string, got \(item.typeName)")
      }
      ids.append(id)
    }
    let changed = try server.store.markRead(ids: ids, now: server.clock.now)
    if !changed.isEmpty { server.feedChanged(request, reason: "read", updated: changed) }
    let changedSet = Set(changed)
    return [
      "changed": .int(Int64(changed.count)),
      "unchanged": .array(ids.filter { !changedSet.contains($0) }.map(JSONValue.string)),
    ]
  }
}
