import Dispatch
import JSON
import Posix

/// `replay`'s one pass over a trace, record by record: each frame the host sent goes to the server
/// when the pass reaches it, and each reply recorded is compared with the server's reply of the
/// same id when the pass reaches that. Only the record being read, the server's replies not yet
/// compared and the ids still owed a reply are held: time and memory grow with the trace's
/// frames, not with their square, and no frame but the current one is kept.
///
/// Nothing waits on a thread: the pass pulls the trace's next entry while it owes no comparison,
/// and when a recorded reply needs the server's and it has not come, it stops pulling until a
/// frame comes, the server's output ends or the deadline passes. Its state lives on one serial
/// queue.
public final class ReplaySession: @unchecked Sendable {
  // Unchecked: every member but the constants is touched only on `queue`.

  /// Seconds the server may take to send each frame of a reply it owes.
  public static let replyTimeout = 10.0

  /// What the pass found.
  public struct Outcome: Sendable {
    public var differences: [String] = []
    public var compared = 0
    /// Why the trace could not be read to its end, when it could not: the pass stopped there.
    public var failure: SystemError?
  }

  /// A reply recorded, still to compare with the server's.
  private struct Owed {
    var line: Int
    var key: String
    var message: JSONValue
  }

  let file: String
  let child: ChildServer
  private let replyTimeout: Double
  private let queue = DispatchQueue(label: "inbox-rpc.replay.session")
  private var trace: TraceLog.Reader?
  private var outcome = Outcome()
  /// True once the server stopped reading: the pass ends.
  private var stopped = false
  private var diff = ReplyDiff()
  /// The server's replies read but not compared yet, by id.
  private var replayed: [String: [JSONValue]] = [:]
  /// Ids of requests sent whose recorded reply is still to come, and how many of each.
  private var owed: [String: Int] = [:]
  private var sentAny = false
  /// The replies of the record read last still to compare, in order, from `comparing`.
  private var toCompare: [Owed] = []
  private var comparing = 0
  /// True while the pass waits for the server's reply to `toCompare[comparing]`.
  private var waiting = false
  /// Counts the waits begun: a deadline set for an earlier one has passed nothing.
  private var waits = 0
  private var outputEnded = false
  private var ended: (@Sendable (Outcome) -> Void)?

  /// `replyTimeout`: what `Self.replyTimeout` is, unless a test shortens it.
  public init(file: String, child: ChildServer, replyTimeout: Double = ReplaySession.replyTimeout) {
    self.file = file
    self.child = child
    self.replyTimeout = replyTimeout
  }

  /// Opens the trace and runs the pass; `ended` runs once on the session's queue when it is over:
  /// at the trace's end, when the server stopped reading, or when the trace cannot be read. The
  /// server's output is drained until it ends, the pass over or not.
  public func start(_ ended: @escaping @Sendable (Outcome) -> Void) {
    queue.async { [self] in
      self.ended = ended
      child.readOutput(on: queue) { [self] event in received(event) }
      do throws(SystemError) {
        trace = try TraceLog.Reader(path: file)
      } catch {
        outcome.failure = error
        end()
        return
      }
      advance()
    }
  }

  /// Compares what can be compared and pulls entries until the trace ends or a reply must be waited for.
  private func advance() {
    while self.ended != nil {
      if comparing < toCompare.count {
        let recorded = toCompare[comparing]
        if let answer = reply(recorded.key) {
          comparing += 1
          if let difference = diff.firstDifference(recorded.message, answer) {
            outcome.differences.append("\(file):\(recorded.line): id \(recorded.key): \(difference)")
          }
        } else if outputEnded {
          noReply()
        } else {
          awaitReply()
          return
        }
        continue
      }
      toCompare.removeAll(keepingCapacity: true)
      comparing = 0
      guard !stopped else { return end() }
      do {
        guard let entry = try trace?.next() else { return end() }
        take(entry)
      } catch {
        outcome.failure = error
        return end()
      }
    }
  }

  private func end() {
    trace = nil
    waiting = false
    let ended = self.ended
    self.ended = nil
    ended?(outcome)
  }

  private func take(_ entry: TraceLog.Entry) {
    guard case .record(let record) = entry else { return }
    switch record.direction {
    case .incoming: send(record)
    case .outgoing: owe(record)
    }
  }

  private func send(_ record: TraceLog.Record) {
    let line: [UInt8]
    if record.isText {
      line = Self.notJSON(record.frame.stringValue ?? "")
    } else {
      line = diff.substituted(record.frame).serialized()
      for (_, message) in TraceLog.messages(of: record.frame) {
        if let id = message["id"], !id.isNull, message["method"] != nil { owed[id.jsonString, default: 0] += 1 }
      }
    }
    sentAny = true
    guard child.send(line) else {
      outcome.differences.append("\(file):\(record.line): the server stopped reading before this frame")
      stopped = true
      return
    }
  }

  /// A frame the trace kept as text (the prefix of one it could not parse), sent on one line as
  /// text that is certainly not JSON either: the server answers it as it answered the original.
  private static func notJSON(_ text: String) -> [UInt8] {
    let line = text.replacing("\n", with: " ")
    return (try? JSONValue.parse(line)) == nil ? Array(line.utf8) : Array("<unparsed> \(line)".utf8)
  }

  /// The recorded replies of `record` that answer something the host sent, to compare in order.
  private func owe(_ record: TraceLog.Record) {
    for (_, message) in TraceLog.messages(of: record.frame) where message["method"] == nil {
      let key = ReplayPlan.key(message)
      if let count = owed[key] {
        owed[key] = count > 1 ? count - 1 : nil
      } else if key != "null" || !sentAny {
        continue  // a reply to nothing the host sent: nothing to compare it with
      }
      outcome.compared += 1
      toCompare.append(Owed(line: record.line, key: key, message: message))
    }
  }

  /// The server's next reply with id `key` among those read; nil when none has come yet.
  private func reply(_ key: String) -> JSONValue? {
    guard replayed[key]?.isEmpty == false else { return nil }
    let answer = replayed[key]?.removeFirst()
    if replayed[key]?.isEmpty == true { replayed[key] = nil }
    return answer
  }

  private func noReply() {
    let recorded = toCompare[comparing]
    comparing += 1
    outcome.differences.append("\(file):\(recorded.line): id \(recorded.key): no reply in the replay")
  }

  /// Stops pulling until a frame comes, the output ends, or `replyTimeout` passes with neither.
  private func awaitReply() {
    waiting = true
    waits += 1
    let begun = waits
    queue.asyncAfter(deadline: .now() + replyTimeout) { [self] in
      guard waiting, waits == begun else { return }
      waiting = false
      noReply()
      advance()
    }
  }

  private func received(_ event: ChildEvents.Output) {
    guard ended != nil else { return }  // the pass is over: the output is only drained
    switch event {
    case .frame(let frame):
      guard let value = try? JSONValue.parse(bytes: frame, options: JSONReadOptions(maxDepth: 2000)) else { break }
      for (_, message) in TraceLog.messages(of: value) where message["method"] == nil {
        replayed[ReplayPlan.key(message), default: []].append(message)
      }
    case .end:
      outputEnded = true
    }
    // Each frame the server sends restarts the deadline of the reply waited for.
    guard waiting else { return }
    waiting = false
    advance()
  }
}
