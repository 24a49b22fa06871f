import JSON
import JSONRPC

/// An operation that answers later, through a `Reply`: started, it returns at once, and waiting for
/// its turn (a sync queued behind another) holds a callback, not a thread.
protocol DeferredOperation: Operation {
  static func start(_ params: Params, _ context: OperationContext, _ reply: Reply)
}

extension DeferredOperation {
  /// The same operation, waited for on the calling thread.
  static func run(_ params: Params, _ context: OperationContext) throws -> JSONValue {
    try Reply.waiting { start(params, context, $0) }
  }

  static var erased: AnyOperation {
    AnyOperation(name: name, execution: execution, decode: { try Params(ParamsReader($0)) }) {
      object, context, reply in
      do {
        start(try Params(ParamsReader(object)), context, reply)
      } catch {
        reply.fail(error)
      }
    }
  }
}
