import Foundation
import InboxSync
import JSON

/// A scripted backend: replies queued per method, every call recorded.
///
/// A reply is the raw HTTP status and body, so `BackendEnvelope.decode` runs exactly as it does for
/// the real backend. With nothing queued, `getInboxMessages` answers `inbox`, and `inboxStatus` answers
/// OK and raises the status of the `inbox` message with that `order`.
final class FakeBackend: Backend, @unchecked Sendable {
  enum Reply: Sendable {
    case http(Int, String)
    case failure(SyncError)

    static func ok(_ response: JSONValue, baseURL: String? = nil) -> Reply {
      var envelope: JSONObject = ["status_code": 200, "status_message": "OK", "response": response]
      if let baseURL { envelope["base_url"] = .string(baseURL) }
      return .http(200, JSONValue.object(envelope).jsonString)
    }
  }

  // `lock` guards every member below; calls arrive from the syncing thread, tests read afterwards.
  private let lock = NSLock()
  private var script: [BackendMethod: [Reply]] = [:]
  private var recorded: [BackendCall] = []
  /// The `messages` of the default `getInboxMessages` reply.
  var inbox: [JSONValue] {
    get { lock.withLock { storedInbox } }
    set { lock.withLock { storedInbox = newValue } }
  }
  private var storedInbox: [JSONValue] = []
  /// Called before each reply, on the syncing thread (cancellation tests flip a flag here).
  var onCall: (@Sendable (BackendCall) -> Void)?

  init(inbox: [JSONValue] = []) { storedInbox = inbox }

  func queue(_ method: BackendMethod, _ replies: Reply...) {
    lock.withLock { script[method, default: []] += replies }
  }

  var calls: [BackendCall] { lock.withLock { recorded } }

  func calls(_ method: BackendMethod) -> [BackendCall] { calls.filter { $0.method == method } }

  func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError) -> BackendEnvelope {
    onCall?(call)
    if isCancelled() { throw .cancelled }
    let reply: Reply = lock.withLock {
      recorded.append(call)
      if var queued = script[call.method], !queued.isEmpty {
        let next = queued.removeFirst()
        script[call.method] = queued
        return next
      }
      switch call.method {
      case .getInboxMessages: return .ok(["messages": .array(storedInbox), "deleted": []])
      case .inboxStatus:
        // Like the service: the message with that order takes the status, which never goes down.
        let code = call.request["inbox_code"]?.stringValue
        let status = call.request["status"]?.intValue ?? 0
        storedInbox = storedInbox.map { message in
          guard case .object(var object) = message, object["order"]?.stringValue == code,
            (object["status"]?.intValue ?? 0) < status
          else { return message }
          object["status"] = .int(status)
          return .object(object)
        }
        return .ok(nil)
      }
    }
    switch reply {
    case .failure(let error): throw error
    case .http(let status, let body):
      return try BackendEnvelope.decode(method: call.method, httpStatus: status, body: Array(body.utf8))
    }
  }
}

/// A backend message as the wire carries it, numbers as strings like the real service sends them.
func wireMessage(
  _ id: String, order: String? = nil, status: Int64 = 1, rt: Int64 = 4_102_444_800, sent: Int64 = 1_700_000_000,
  title: String? = nil, hash: String? = nil, params: JSONValue = ["l": "https://example.com"]
) -> JSONValue {
  var object: JSONObject = [
    "inbox_id": .string(id), "rt": .string(String(rt)), "send_date": .string(String(sent)),
    "title": .string(title ?? "Title \(id)"), "text": "Body", "action_type": 1,
    "action_params": .string(params.jsonString), "status": .int(status), "hash": .string(hash ?? "H-\(id)"),
  ]
  object["order"] = .string(order ?? "9\(id.utf8.reduce(0) { $0 * 31 % 100_000 + Int($1) })")
  return .object(object)
}

/// A push payload that carries inbox fields (iOS shape); the message is push-only until a sync lists it.
func pushPayload(_ id: String, sent: Int64 = 1_700_000_000) -> JSONValue {
  [
    "aps": ["alert": ["title": .string("Push \(id)"), "body": "Body"]], "pw_inbox": .string(id),
    "inbox_params": ["rt": "4102444800"], "p": .string("P-\(id)"), "google.sent_time": .int(sent * 1000),
  ]
}
