import JSON
import Posix

/// A trace written by `--trace`, read back: one record per line (see docs/tracing.md).
struct TraceLog {
  enum Direction: String {
    case incoming = "in"
    case outgoing = "out"
  }

  struct Record {
    /// 1-based line in the file.
    var line: Int
    /// Milliseconds since the Unix epoch.
    var time: Int64
    var direction: Direction
    /// The frame; a frame that was not JSON is kept as a string, and `isText` says so.
    var frame: JSONValue
    var isText: Bool
  }

  /// A line that is not a record, or a gap the writer left (`{"t", "dropped": N}`).
  struct Gap {
    var line: Int
    var reason: String
  }

  var records: [Record] = []
  var gaps: [Gap] = []
  /// The file as read, and where each line starts in it (`lineStarts[0]` is line 1's).
  var bytes: [UInt8] = []
  var lineStarts: [Int] = []

  /// The trace in `path`; a file that cannot be read throws, a bad line is a gap.
  static func read(_ path: String) throws(SystemError) -> TraceLog {
    let bytes = try Files.contents(of: path)
    var log = TraceLog()
    log.bytes = bytes
    for (index, text) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
      let number = index + 1
      log.lineStarts.append(text.startIndex)
      guard !text.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { continue }
      guard let value = try? JSONValue.parse(bytes: text, options: JSONReadOptions(maxDepth: 2000)) else {
        log.gaps.append(Gap(line: number, reason: "not a trace record: the line is not JSON"))
        continue
      }
      if let dropped = value["dropped"]?.intValue {
        log.gaps.append(Gap(line: number, reason: "\(dropped) frames were dropped here (the trace fell behind)"))
        continue
      }
      guard let time = value["t"]?.intValue, let direction = value["dir"]?.stringValue.flatMap(Direction.init),
        let frame = value["frame"]
      else {
        log.gaps.append(Gap(line: number, reason: "not a trace record: it needs t, dir (in or out) and frame"))
        continue
      }
      let isText = frame.stringValue != nil
      log.records.append(Record(line: number, time: time, direction: direction, frame: frame, isText: isText))
    }
    return log
  }

  /// The messages of a frame, each with its index when the frame is a batch.
  static func messages(of frame: JSONValue) -> [(index: Int?, message: JSONValue)] {
    guard case .array(let items) = frame else { return [(nil, frame)] }
    return items.enumerated().map { ($0.offset, $0.element) }
  }
}
