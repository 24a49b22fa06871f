/// The backend of a sandboxed server (`replay`'s): every call goes to `listener`, a loopback URL
/// the person replaying named, whatever base URL the settings, a replayed `config.set` or the
/// backend's own reply name, and never with the token; with no listener, no call leaves the process.
/// A trace from someone else cannot make the replay act as the person running it.
public struct ConfinedBackend: Backend {
  public let inner: any Backend
  /// The one listener calls may reach; nil: none.
  public let listener: BackendURL?

  public init(_ inner: any Backend, listener: BackendURL?) {
    self.inner = inner
    self.listener = listener
  }

  public func send(_ call: BackendCall, isCancelled: @escaping @Sendable () -> Bool) throws(SyncError)
    -> BackendEnvelope
  {
    guard let listener else {
      throw .unavailable(
        method: call.method.rawValue, reason: "the replay's sandbox reaches no network (replay --backend-listener URL)")
    }
    var confined = call
    confined.baseURL = listener
    confined.token = nil
    return try inner.send(confined, isCancelled: isCancelled)
  }
}
