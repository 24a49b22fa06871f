import Dispatch
import InboxStore
import Synchronization

extension InboxStore {
  /// `open(_:completion:)` as a call that returns once it has, for tests.
  public static func open(_ options: Options) throws(StoreError) -> InboxStore {
    let outcome = Mutex<Result<InboxStore, StoreError>?>(nil)
    let done = DispatchSemaphore(value: 0)
    open(options) { opened in
      outcome.withLock { $0 = opened }
      done.signal()
    }
    done.wait()
    return try outcome.withLock { $0! }.get()
  }
}

extension InboxStore {
  /// Returns once no check of an unclean start runs (writes are refused while one does), for tests.
  public func waitUntilChecked() {
    while isBeingChecked {
      let rung = DispatchSemaphore(value: 0)
      lockWaits.wake(attempt: .max, deadline: .now() + 1) { rung.signal() }
      rung.wait()
    }
  }
}
