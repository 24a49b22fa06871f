import JSON
import Posix

/// What `replay` needs to know before it starts the server, from one pass over the trace that
/// parses only the first record and the lines that may hold an MCP `initialize`.
public struct ReplayPlan {
  /// Milliseconds of the trace's first record.
  public private(set) var firstTime: Int64?
  /// True when the host spoke MCP (an `initialize` with a `protocolVersion`).
  public private(set) var isMCP = false

  private static let protocolVersion = Array(#""protocolVersion""#.utf8)

  public init(_ path: String) throws(SystemError) {
    var plan = ReplayPlan()
    var file = try RegularFile(path: path)
    var number = 0
    while let text = try file.nextLine() {
      number += 1
      let mentionsMCP = !plan.isMCP && text.firstRange(of: Self.protocolVersion) != nil
      guard plan.firstTime == nil || mentionsMCP else { continue }
      guard case .record(let record)? = TraceLog.entry(text, line: number) else { continue }
      plan.firstTime = plan.firstTime ?? record.time
      if record.direction == .incoming, mentionsMCP {
        plan.isMCP = TraceLog.messages(of: record.frame).contains { _, message in
          message["method"]?.stringValue == "initialize" && message["params"]?["protocolVersion"] != nil
        }
      }
    }
    self = plan
  }

  private init() {}

  /// A reply's id as text: what recorded and replayed replies are matched by.
  static func key(_ message: JSONValue) -> String { (message["id"] ?? .null).jsonString }
}
