import Synchronization

/// The outcome of a call that usually completes before it returns (a store opened with no other
/// process in the way), taken on the calling thread when it has, so the common start makes no
/// thread; when it completes later, `later` takes it on the completing thread.
final class HereOrLater<Value: Sendable>: Sendable {
  private let state = Mutex<(returned: Bool, value: Value?)>((false, nil))
  private let later: @Sendable (Value) -> Void

  init(later: @escaping @Sendable (Value) -> Void) { self.later = later }

  /// The call completed with `value`: kept for `returned` if the call has not returned yet.
  func complete(_ value: Value) {
    let kept = state.withLock { state -> Bool in
      guard !state.returned else { return false }
      state.value = value
      return true
    }
    if !kept { later(value) }
  }

  /// The call returned: its value if it completed meanwhile; nil when `later` will take it.
  func returned() -> Value? {
    state.withLock { state in
      state.returned = true
      return state.value.take()
    }
  }
}
