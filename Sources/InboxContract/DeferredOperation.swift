import JSON
import JSONRPC

/// An operation that answers later, through a `Reply`: started, it returns at once, and waiting for
/// its turn (a sync queued behind another) holds a callback, not a thread.
protocol DeferredOperation: OperationContract {
  associatedtype Params
  static func start(_ params: Params, _ context: OperationContext, _ reply: Reply)
}

extension DeferredOperation {
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
