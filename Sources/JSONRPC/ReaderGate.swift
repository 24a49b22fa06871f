import Dispatch
import Synchronization

/// The one place the reader waits, between frames, so that a host sending faster than the server
/// works, or reading slower than it answers, fills its pipe, not the server's memory: while the
/// frames handed off the reader hold `inputLimit` bytes of input (one frame is always let through,
/// however large, so a frame the reader accepted never deadlocks), and while a megabyte of output
/// waits for the host (`OutputWriter.backlogLimit`). Only the reader calls `pass`; what frees room
/// wakes it.
final class ReaderGate: Sendable {
  let inputLimit: Int
  private let output: OutputWriter
  private let held = Mutex<(bytes: Int, reader: DispatchSemaphore?)>((0, nil))

  init(inputLimit: Int, output: OutputWriter) {
    self.inputLimit = inputLimit
    self.output = output
  }

  /// Returns once the output has room and `bytes` of input fit in flight, having taken them.
  func pass(holding bytes: Int) {
    while true {
      let wake = DispatchSemaphore(value: 0)
      let open =
        output.hasRoom(orWhenRoom: { wake.signal() })
        && held.withLock { held in
          guard bytes > 0, held.bytes > 0, held.bytes + bytes > inputLimit else {
            held.bytes += bytes
            return true
          }
          held.reader = wake
          return false
        }
      if open { return }
      wake.wait()
    }
  }

  /// Input handed off has been dealt with: its bytes leave the count.
  func release(_ bytes: Int) {
    let reader = held.withLock { held -> DispatchSemaphore? in
      held.bytes -= bytes
      defer { held.reader = nil }
      return held.reader
    }
    reader?.signal()
  }
}
