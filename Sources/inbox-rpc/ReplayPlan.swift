import JSON

/// What `replay` sends and expects, read from a trace: the host's frames in order, each with the
/// replies recorded for it (by id; an error with a null id belongs to the last frame before it).
struct ReplayPlan {
  struct Reply {
    var line: Int
    var key: String
    var message: JSONValue
  }

  struct Step {
    var line: Int
    /// The frame as one line to send.
    var bytes: [UInt8]
    var replies: [Reply] = []
  }

  private(set) var steps: [Step] = []
  /// Milliseconds of the trace's first record.
  private(set) var firstTime: Int64?
  /// True when the host spoke MCP (an `initialize` with a `protocolVersion`).
  private(set) var isMCP = false

  init(_ log: TraceLog) {
    var stepOfID: [String: Int] = [:]
    for record in log.records {
      firstTime = firstTime ?? record.time
      switch record.direction {
      case .incoming:
        let line: [UInt8]
        if case .string(let text) = record.frame {
          // Sent as it was, on one line: a frame with newlines in it would be two.
          line = Array(text.replacing("\n", with: " ").utf8)
        } else {
          line = record.frame.serialized()
        }
        steps.append(Step(line: record.line, bytes: line))
        for (_, message) in TraceLog.messages(of: record.frame) {
          if let id = message["id"], !id.isNull, message["method"] != nil { stepOfID[id.jsonString] = steps.count - 1 }
          if message["method"]?.stringValue == "initialize", message["params"]?["protocolVersion"] != nil {
            isMCP = true
          }
        }
      case .outgoing:
        for (_, message) in TraceLog.messages(of: record.frame) where message["method"] == nil {
          let key = Self.key(message)
          guard let step = stepOfID.removeValue(forKey: key) ?? (key == "null" ? steps.indices.last : nil) else {
            continue
          }
          steps[step].replies.append(Reply(line: record.line, key: key, message: message))
        }
      }
    }
  }

  /// A reply's id as text: what recorded and replayed replies are matched by.
  static func key(_ message: JSONValue) -> String { (message["id"] ?? .null).jsonString }
}
