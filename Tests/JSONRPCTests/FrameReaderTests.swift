import InboxTestSupport
import JSONRPC
import Testing

/// One row per framing rule; every row runs fed whole, byte by byte, and in random chunks.
struct FrameReaderCase: CustomTestStringConvertible, Sendable {
  var name: String
  var framing: Framing? = nil
  var limit = 64
  var input: [UInt8]
  var expected: [FrameReader.Event]
  var detected: Framing?

  var testDescription: String { name }

  static func lsp(_ body: String) -> String { "Content-Length: \(body.utf8.count)\r\n\r\n\(body)" }
  static func frame(_ text: String) -> FrameReader.Event { .frame(Array(text.utf8)) }

  static let all: [FrameReaderCase] = [
    .init(name: "ndjson one line", input: Array("{\"a\":1}\n".utf8), expected: [frame("{\"a\":1}")], detected: .ndjson),
    .init(
      name: "ndjson several in one write, CRLF, blank lines", input: Array("[1]\r\n\n  \n{}\n".utf8),
      expected: [frame("[1]"), frame("{}")], detected: .ndjson),
    .init(name: "ndjson without final newline waits", input: Array("{}".utf8), expected: [], detected: .ndjson),
    .init(
      name: "ndjson BOM", input: [0xEF, 0xBB, 0xBF] + Array("{}\n".utf8), expected: [frame("{}")], detected: .ndjson),
    .init(
      name: "ndjson garbage line then valid", input: Array("hello there\n{}\n".utf8),
      expected: [frame("hello there"), frame("{}")], detected: .ndjson),
    .init(
      name: "ndjson oversized line then valid", limit: 8, input: Array("[1,2,3,4,5,6,7,8,9]\n[1]\n".utf8),
      expected: [.tooLarge(limit: 8, size: nil), frame("[1]")], detected: .ndjson),
    .init(
      name: "lsp one frame", input: Array(lsp("{\"a\":1}").utf8), expected: [frame("{\"a\":1}")], detected: .lsp),
    .init(
      name: "lsp lenient headers: case, order, Content-Type, bare LF",
      input: Array("Content-Type: application/vscode-jsonrpc; charset=utf8\ncontent-length: 2\n\n{}".utf8),
      expected: [frame("{}")], detected: .lsp),
    .init(
      name: "lsp two frames back to back", input: Array((lsp("[1]") + lsp("[2]")).utf8),
      expected: [frame("[1]"), frame("[2]")], detected: .lsp),
    .init(
      name: "lsp BOM", input: [0xEF, 0xBB, 0xBF] + Array(lsp("{}").utf8), expected: [frame("{}")], detected: .lsp),
    .init(
      name: "lsp multibyte body counted in bytes", input: Array(lsp("\"é日😀\"").utf8), expected: [frame("\"é日😀\"")],
      detected: .lsp),
    .init(
      name: "lsp oversized frame skipped then valid", limit: 4,
      input: Array(("Content-Length: 10\r\n\r\n0123456789" + lsp("[1]")).utf8),
      expected: [.tooLarge(limit: 4, size: 10), frame("[1]")], detected: .lsp),
    .init(
      name: "lsp missing length resynchronises", framing: .lsp,
      input: Array(("Content-Type: x\r\n\r\ngarbage\r\n" + lsp("[1]")).utf8),
      expected: [.badHeader("missing Content-Length header"), frame("[1]")], detected: .lsp),
    .init(
      name: "lsp non-numeric length", input: Array(("Content-Length: 1x\r\n\r\n" + lsp("[2]")).utf8),
      expected: [.badHeader("Content-Length is not a decimal number"), frame("[2]")], detected: .lsp),
    .init(
      name: "lsp a JSON line without a header is refused, then serving goes on",
      input: Array(("Content-Length: 3\r\n\r\n[0]{\"jsonrpc\":\"2.0\",\"id\":1}\n" + lsp("[1]")).utf8),
      expected: [
        frame("[0]"),
        .badHeader("a JSON text without a Content-Length header (the stream is in Content-Length framing)"),
        frame("[1]"),
      ], detected: .lsp),
    .init(
      name: "lsp a JSON line alone is answered, not awaited", framing: .lsp,
      input: Array("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"rpc.ping\"}\n".utf8),
      expected: [.badHeader("a JSON text without a Content-Length header (the stream is in Content-Length framing)")],
      detected: .lsp),
    .init(
      name: "lsp two Content-Length headers that disagree are refused",
      input: Array(("Content-Length: 3\r\nContent-Length: 4\r\n\r\n[22]" + lsp("[1]")).utf8),
      expected: [.badHeader("two Content-Length headers that disagree (3 and 4)"), frame("[1]")], detected: .lsp),
    .init(
      name: "lsp the same Content-Length twice is one",
      input: Array("Content-Length: 2\r\ncontent-length: 2\r\n\r\n{}".utf8),
      expected: [frame("{}")], detected: .lsp),
    .init(
      name: "forced ndjson reads a header as a line", framing: .ndjson, input: Array("Content-Length: 2\n".utf8),
      expected: [frame("Content-Length: 2")], detected: .ndjson),
  ]
}

struct FrameReaderTests {
  static func events(_ row: FrameReaderCase, chunks: [Int]) -> ([FrameReader.Event], Framing?) {
    var reader = FrameReader(framing: row.framing, maxFrameBytes: row.limit)
    var events: [FrameReader.Event] = []
    var offset = 0
    var sizes = chunks.makeIterator()
    while offset < row.input.count {
      let size = min(sizes.next() ?? row.input.count, row.input.count - offset)
      reader.append(Array(row.input[offset..<offset + size]))
      offset += size
      while let event = reader.next() { events.append(event) }
    }
    return (events, reader.framing)
  }

  @Test(arguments: FrameReaderCase.all)
  func whole(_ row: FrameReaderCase) {
    let (events, framing) = Self.events(row, chunks: [row.input.count])
    #expect(events == row.expected)
    if let detected = row.detected { #expect(framing == detected) }
  }

  @Test(arguments: FrameReaderCase.all)
  func byteByByte(_ row: FrameReaderCase) {
    let (events, _) = Self.events(row, chunks: Array(repeating: 1, count: row.input.count))
    #expect(events == row.expected)
  }

  @Test(arguments: FrameReaderCase.all)
  func randomChunks(_ row: FrameReaderCase) {
    var generator = SplitMix64(seed: UInt64(row.name.utf8.count))
    for _ in 0..<20 {
      let chunks = (0..<row.input.count).map { _ in Int(generator.next() % 7) + 1 }
      let (events, _) = Self.events(row, chunks: chunks)
      #expect(events == row.expected)
    }
  }

  @Test func largeFrameArrivingInSmallReadsIsScannedOnce() {
    let body = "[" + String(repeating: "\"é\",", count: 200_000) + "1]"
    var reader = FrameReader(maxFrameBytes: 16 * 1024 * 1024)
    let bytes = Array((body + "\n").utf8)
    var frames = 0
    for start in stride(from: 0, to: bytes.count, by: 4096) {
      reader.append(Array(bytes[start..<min(start + 4096, bytes.count)]))
      while case .frame(let frame)? = reader.next() {
        #expect(frame.count == body.utf8.count)
        frames += 1
      }
    }
    #expect(frames == 1)
    #expect(reader.bufferedByteCount == 0)
  }
}
