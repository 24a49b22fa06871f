import JSON
import LintReport
import Posix

/// A trace written by `--trace`, read back one line at a time (see docs/tracing.md): only the line
/// being read is held, so a trace of any length is read in memory bounded by its longest frame.
/// `read` pushes the entries to a callback; `Reader` hands them out as they are pulled.
public enum TraceLog {
  public enum Direction: String, Sendable {
    case incoming = "in"
    case outgoing = "out"
  }

  public struct Record {
    /// 1-based line in the file.
    public var line: Int
    /// Milliseconds since the Unix epoch.
    public var time: Int64
    public var direction: Direction
    /// The frame; one that could not be parsed is kept as the prefix of its digest (`isText`).
    public var frame: JSONValue
    public var isText: Bool
    /// The line as written, for positions in it.
    public var text: SourceText
  }

  /// A line that is not a record, or a gap the writer left (`{"t", "dropped": N}`).
  public struct Gap {
    public var line: Int
    public var reason: String
    public var isDrop: Bool
  }

  public enum Entry {
    case record(Record)
    case gap(Gap)
  }

  private static let options = JSONReadOptions(maxDepth: 2000)

  /// Calls `each` with every record and gap of the trace in `path`, in order, until it returns false.
  /// A path that is not a regular file (a FIFO, a device) or cannot be read throws.
  public static func read(_ path: String, _ each: (Entry) -> Bool) throws(SystemError) {
    var reader = try Reader(path: path)
    while let entry = try reader.next() {
      guard each(entry) else { return }
    }
  }

  /// The record or gap on one line; nil for a blank line.
  static func entry(_ text: ArraySlice<UInt8>, line number: Int) -> Entry? {
    guard !text.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) else { return nil }
    guard let value = try? JSONValue.parse(bytes: text, options: options) else {
      return .gap(Gap(line: number, reason: "not a trace record: the line is not JSON", isDrop: false))
    }
    if let dropped = value["dropped"]?.intValue {
      return .gap(
        Gap(line: number, reason: "\(dropped) frames were dropped here (the trace fell behind)", isDrop: true))
    }
    guard let time = value["t"]?.intValue, let direction = value["dir"]?.stringValue.flatMap(Direction.init) else {
      return .gap(Gap(line: number, reason: "not a trace record: it needs t, dir (in or out) and frame", isDrop: false))
    }
    if let frame = value["frame"] {
      let record = Record(
        line: number, time: time, direction: direction, frame: frame, isText: frame.stringValue != nil,
        text: SourceText(Array(text)))
      return .record(record)
    }
    if let prefix = value["unparsed"]?["prefix"]?.stringValue {
      let record = Record(
        line: number, time: time, direction: direction, frame: .string(prefix), isText: true,
        text: SourceText(Array(text)))
      return .record(record)
    }
    return .gap(Gap(line: number, reason: "not a trace record: it needs t, dir (in or out) and frame", isDrop: false))
  }

  /// The messages of a frame, each with its index when the frame is a batch.
  static func messages(of frame: JSONValue) -> [(index: Int?, message: JSONValue)] {
    guard case .array(let items) = frame else { return [(nil, frame)] }
    return items.enumerated().map { ($0.offset, $0.element) }
  }
}
