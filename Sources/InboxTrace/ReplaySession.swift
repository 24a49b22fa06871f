import JSON

/// `replay`'s one pass over a trace, record by record: each frame the host sent goes to the server
/// when the pass reaches it, and each reply recorded is compared with the server's reply of the
/// same id when the pass reaches that. Only the record being read, the server's replies not yet
/// compared and the ids still owed a reply are held: time and memory grow with the trace's
/// frames, not with their square, and no frame but the current one is kept.
public struct ReplaySession {
  /// Seconds the server may take to send each frame of a reply it owes.
  public static let replyTimeout = 10.0

  let file: String
  let child: ChildServer
  public private(set) var differences: [String] = []
  public private(set) var compared = 0
  /// True once the server stopped reading: the pass ends.
  public private(set) var stopped = false
  private var diff = ReplyDiff()
  /// The server's replies read but not compared yet, by id.
  private var replayed: [String: [JSONValue]] = [:]
  /// Ids of requests sent whose recorded reply is still to come, and how many of each.
  private var owed: [String: Int] = [:]
  private var sentAny = false

  public init(file: String, child: ChildServer) {
    self.file = file
    self.child = child
  }

  public mutating func take(_ entry: TraceLog.Entry) {
    guard case .record(let record) = entry else { return }
    switch record.direction {
    case .incoming: send(record)
    case .outgoing: compare(record)
    }
  }

  private mutating func send(_ record: TraceLog.Record) {
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
      differences.append("\(file):\(record.line): the server stopped reading before this frame")
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

  private mutating func compare(_ record: TraceLog.Record) {
    for (_, message) in TraceLog.messages(of: record.frame) where message["method"] == nil {
      let key = ReplayPlan.key(message)
      if let count = owed[key] {
        owed[key] = count > 1 ? count - 1 : nil
      } else if key != "null" || !sentAny {
        continue  // a reply to nothing the host sent: nothing to compare it with
      }
      compared += 1
      guard let answer = reply(key) else {
        differences.append("\(file):\(record.line): id \(key): no reply in the replay")
        continue
      }
      if let difference = diff.firstDifference(message, answer) {
        differences.append("\(file):\(record.line): id \(key): \(difference)")
      }
    }
  }

  /// The server's next reply with id `key`, read as it comes (at most `Self.replyTimeout`
  /// for each frame); nil when none comes.
  private mutating func reply(_ key: String) -> JSONValue? {
    while replayed[key]?.isEmpty ?? true {
      guard let frame = child.next(timeout: Self.replyTimeout) else { return nil }
      guard let value = try? JSONValue.parse(bytes: frame, options: JSONReadOptions(maxDepth: 2000)) else { continue }
      for (_, message) in TraceLog.messages(of: value) where message["method"] == nil {
        replayed[ReplayPlan.key(message), default: []].append(message)
      }
    }
    let answer = replayed[key]!.removeFirst()
    if replayed[key]!.isEmpty { replayed[key] = nil }
    return answer
  }
}
