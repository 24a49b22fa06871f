import Dispatch

/// What the logger holds between a line logged and its bytes written, and who writes them: the log
/// queue while the server runs, the exiting thread at the end (one at a time, so lines never
/// interleave). Used under the logger's mutex.
struct LogBacklog: ~Copyable {
  enum Writer { case queue, exit }

  /// What the exiting thread found.
  enum ExitClaim {
    /// Nothing to write, or another thread is writing at exit.
    case nothing
    /// The exiting thread writes the rest.
    case claimed
    /// The queue's thread is in a write: it hands the rest over, signalling this, when it returns.
    case afterQueue(DispatchSemaphore)
  }

  private var lines: [String] = []
  private var dropped = 0
  /// Taken, not yet written: the host had no room.
  private var unwritten: [UInt8] = []
  private var writer: Writer?
  /// A write source waits for room on stderr: the queue writes nothing until it fires.
  var waitsForRoom = false
  private var handOver: DispatchSemaphore?

  private var isEmpty: Bool { lines.isEmpty && dropped == 0 && unwritten.isEmpty }

  /// Queues `line`, or counts it dropped when `capacity` lines wait already. True for the first
  /// line since the last write: it schedules the next one.
  mutating func queue(_ line: String, capacity: Int) -> Bool {
    guard lines.count < capacity else {
      dropped += 1
      return false
    }
    lines.append(line)
    return lines.count == 1
  }

  /// Everything to write: what the host had no room for, then the lines queued since, and a count
  /// of those dropped.
  mutating func take() -> [UInt8] {
    if dropped > 0 {
      lines.append("inbox-rpc warn: \(dropped) log lines dropped (stderr is not being read fast enough)")
    }
    if !lines.isEmpty { unwritten += Array((lines.joined(separator: "\n") + "\n").utf8) }
    defer { (lines, dropped, unwritten) = ([], 0, []) }
    return unwritten
  }

  /// The part of what `take` gave that the host had no room for: it goes first next time.
  mutating func put(back rest: [UInt8]) { unwritten = rest + unwritten }

  /// Whether the queue may write now.
  mutating func claimForQueue() -> Bool {
    guard writer == nil, !waitsForRoom else { return false }
    writer = .queue
    return true
  }

  /// The queue's write returned, `full` when the host had no room: the exiting thread waiting for
  /// it (returned) takes over, else the queue waits for room.
  mutating func releaseFromQueue(full: Bool) -> DispatchSemaphore? {
    guard let waiting = handOver else {
      (writer, waitsForRoom) = (nil, full)
      return nil
    }
    (writer, handOver) = (.exit, nil)
    return waiting
  }

  mutating func claimForExit() -> ExitClaim {
    switch writer {
    case nil:
      if isEmpty { return .nothing }
      writer = .exit
      return .claimed
    case .queue:
      let waiting = handOver ?? DispatchSemaphore(value: 0)
      handOver = waiting
      return .afterQueue(waiting)
    case .exit: return .nothing
    }
  }

  /// The exiting thread stopped waiting for `waiting`: whether the queue handed over meanwhile.
  mutating func handedOver(_ waiting: DispatchSemaphore) -> Bool {
    guard handOver === waiting else { return true }
    handOver = nil
    return false
  }

  /// The exiting thread is done: true when it left lines the queue must write (no write source
  /// waits to).
  mutating func releaseFromExit() -> Bool {
    writer = nil
    return !isEmpty && !waitsForRoom
  }
}
