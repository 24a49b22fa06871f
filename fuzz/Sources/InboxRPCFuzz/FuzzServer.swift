// The server one input talks to, rebuilt only after an input that may have changed it.
//
// A server session (attributes in force, pinned clock, warnings already said) and the store are
// state; an input that reaches none but read-only methods leaves both as it found them, so the
// next input reuses them. Any other method marks the server touched: before the next input it
// gets a new session, and the store is emptied (`PristineStore`). So every input still starts
// from the same state, and a crash found replays alone (fuzz/run --replay).
//
// `rpc.discover` runs as it is, but its reply carries only the document's version: encoding and
// checking the 60 KB document took some 20 ms under ASan, a hundred typical inputs, and exercises
// nothing the other replies do not. `test.sleep` runs its whole path (the cancel hook, the timed
// wait, the check) with a wait of 0 ms: one input in ten reached it, and a real wait cost each of
// them more than the rest of the input, with nothing a fuzzer could replay found in the waiting
// (what a cancel racing the wait finds depends on thread timing).

import InboxServer
import JSON
import JSONRPC
import Synchronization

final class FuzzServer: Sendable {
  /// Methods that change nothing, whatever their params, on a store that starts empty.
  private static let readOnly: Set<String> = [
    "rpc.ping", "rpc.discover", "config.get", "feed.counts", "feed.list", "message.get",
    "subtract", "sum", "update", "notify_hello", "notify_sum", "get_data", "test.echo", "test.sleep", "test.log",
  ]

  private let options: ServerOptions
  private let pristine: PristineStore
  private let touched = Atomic<Bool>(false)
  private let current: Mutex<MethodRegistry>

  init(options: ServerOptions) throws {
    self.options = options
    pristine = try PristineStore(options: options)
    current = Mutex(MethodRegistry())
    current.withLock { $0 = (try? self.session()) ?? MethodRegistry() }
  }

  /// The registry for the next input: the same one, or a new session on an emptied store.
  func registry() throws -> MethodRegistry {
    if touched.exchange(false, ordering: .acquiringAndReleasing) {
      try pristine.reset()
      let fresh = try session()
      current.withLock { $0 = fresh }
    }
    return current.withLock { $0 }
  }

  /// A new session whose handlers note that a method that may write was reached.
  private func session() throws -> MethodRegistry {
    let registry = try InboxServer.registry(options: options, store: pristine.store)
    return MethodRegistry(
      registry.names.compactMap { registry[$0] }.map { method in
        if method.name == "test.sleep" {
          return Method(method.name, placement: method.placement) { request in
            guard let ms = try? request.params.int("ms"), (0...600_000).contains(ms) else {
              return try Self.answer(method, request)  // refused as the server refuses it
            }
            return try Self.answer(
              method,
              RequestContext(
                id: request.id, method: request.method, params: Params(["ms": 0]),
                cancellation: request.cancellation, notify: request.notify, logger: request.logger))
          }
        }
        if method.name == "rpc.discover" {
          return Method(method.name, placement: method.placement) { request in
            ["openrpc": try Self.answer(method, request)["openrpc"] ?? .null]
          }
        }
        guard !Self.readOnly.contains(method.name) else { return method }
        return Self.noting(method) { [unowned self] in self.touched.store(true, ordering: .releasing) }
      })
  }

  /// What `method`, one that answers at once (`test.sleep`, `rpc.discover`), answers to `request`.
  private static func answer(_ method: Method, _ request: RequestContext) throws -> JSONValue {
    guard case .immediate(let handler) = method.body else { throw RPCError.methodNotFound(method.name) }
    return try handler(request)
  }

  /// `method`, answered the way it answers (at once or later), with `reached` called first.
  private static func noting(_ method: Method, _ reached: @escaping @Sendable () -> Void) -> Method {
    switch method.body {
    case .immediate(let handler):
      return Method(method.name, placement: method.placement) { request in
        reached()
        return try handler(request)
      }
    case .write(let handler):
      return Method(
        method.name,
        write: { request in
          reached()
          return handler(request)
        })
    case .deferred(let handler):
      return Method(
        method.name, placement: method.placement,
        deferred: { request, reply in
          reached()
          handler(request, reply)
        })
    }
  }
}
