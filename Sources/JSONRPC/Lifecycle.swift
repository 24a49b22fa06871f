import JSON
import Synchronization

/// The connection's own lifecycle (LSP's): `shutdown` (a request: the server finishes and refuses
/// what follows), `exit` (a notification: stop reading; exit code 0 after a shutdown, else 1) and
/// `$/cancelRequest {id}` (a notification). Registered as methods like the others; as requests,
/// `exit` and `$/cancelRequest` do not exist (-32601), as LSP defines them as notifications.
final class Lifecycle: Sendable {
  static let names = ["shutdown", "exit", "$/cancelRequest"]

  private let shutdownFlag = Atomic<Bool>(false)
  private let shutdownRead = Atomic<Bool>(false)
  private let exitFlag = Atomic<Bool>(false)

  var isShuttingDown: Bool { shutdownFlag.load(ordering: .acquiring) }
  var exitRequested: Bool { exitFlag.load(ordering: .acquiring) }

  /// The reader read a `shutdown` request: what the exit code counts (LSP: 0 when `shutdown` was
  /// received before `exit`), also when the drain cancels it before it ran.
  func noteShutdownRead() { shutdownRead.store(true, ordering: .releasing) }

  /// The exit code once input ends or `exit` arrives.
  var exitCode: Int32 { exitRequested && !isShuttingDown && !shutdownRead.load(ordering: .acquiring) ? 1 : 0 }

  /// The three methods; `cancel` cancels the request with the given id, if it is in flight. The
  /// cancel is the `notification` named (LSP's `$/cancelRequest {id}` unless the protocol has its own);
  /// `onShutdown` runs as `shutdown` is accepted.
  func methods(
    notification: (method: String, idMember: String) = ("$/cancelRequest", "id"),
    onShutdown: (@Sendable () -> Void)? = nil, cancel: @escaping @Sendable (JSONValue) -> Void
  ) -> [Method] {
    [
      Method("shutdown") { [self] request in
        // As a notification it is ignored: LSP defines it as a request, and it must be answered.
        guard request.id != nil else { return .null }
        shutdownFlag.store(true, ordering: .releasing)
        onShutdown?()
        return .null
      },
      Method("exit") { [self] request in
        guard request.id == nil else { throw RPCError.methodNotFound("exit") }
        exitFlag.store(true, ordering: .releasing)
        return .null
      },
      Method(notification.method) { request in
        guard request.id == nil else { throw RPCError.methodNotFound(notification.method) }
        if let id = try request.params.value(notification.idMember) { cancel(id) }
        return .null
      },
    ]
  }
}
