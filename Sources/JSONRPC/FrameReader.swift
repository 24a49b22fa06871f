/// Splits a byte stream into frames. Pure: no I/O, so it is tested as a table and fed byte by byte.
///
/// The framing is detected from the first non-blank byte after an optional UTF-8 byte-order mark
/// (`C` or `c` starts a `Content-Length` header; anything else is newline-delimited JSON) unless
/// it is forced. The size limit is checked on the complete frame length before a body is buffered;
/// an oversized or malformed frame yields an event, and reading resumes at the next frame.
public struct FrameReader: Sendable {
  /// What the reader found next in the stream.
  public enum Event: Sendable, Equatable {
    /// One complete frame body.
    case frame([UInt8])
    /// A frame longer than the limit, skipped; `size` is known for LSP headers, not for an unterminated line.
    case tooLarge(limit: Int, size: Int?)
    /// An LSP header block that cannot be read; bytes are skipped up to the next `Content-Length` line.
    case badHeader(String)
  }

  /// The framing in force: forced, detected, or nil until the first non-blank byte arrives.
  public private(set) var framing: Framing?
  public let maxFrameBytes: Int
  /// Longest LSP header block accepted; real clients send one or two short lines.
  public static let maxHeaderBytes = 8 * 1024

  private var buffer: [UInt8] = []
  private var start = 0
  /// Where the NDJSON newline search resumes, so a long line is scanned once, not on every read.
  private var scanFrom = 0
  private var atStreamStart = true
  /// NDJSON: the rest of an oversized line is being discarded.
  private var discardingLine = false
  /// LSP: body bytes of an oversized frame still to skip.
  private var bodyBytesToSkip = 0
  /// LSP: after a bad header, skip lines until one starts a header.
  private var resynchronising = false
  /// LSP: the first bytes of the last frame skipped for its size, as far as they had arrived with
  /// its header (at most `skippedHeadBytes`): a face may tell what it carried (the LSP's: which
  /// document).
  public private(set) var skippedHead: [UInt8] = []
  static let skippedHeadBytes = 4096

  public init(framing: Framing? = nil, maxFrameBytes: Int = 16 * 1024 * 1024) {
    self.framing = framing
    self.maxFrameBytes = maxFrameBytes
  }

  /// Bytes waiting in the buffer (for tests and back-pressure decisions).
  public var bufferedByteCount: Int { buffer.count - start }

  /// Adds bytes read from the stream.
  public mutating func append(_ bytes: UnsafeRawBufferPointer) {
    if start > 0 {
      buffer.removeFirst(start)
      scanFrom -= start
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  public mutating func append(_ bytes: [UInt8]) {
    bytes.withUnsafeBytes { append($0) }
  }

  /// The next event, or nil when more bytes are needed.
  public mutating func next() -> Event? {
    if atStreamStart {
      guard stripByteOrderMark() else { return nil }
    }
    if framing == nil {
      skipBlank()
      guard start < buffer.count else { return nil }
      framing = (buffer[start] == UInt8(ascii: "C") || buffer[start] == UInt8(ascii: "c")) ? .lsp : .ndjson
    }
    switch framing {
    case .lsp: return nextHeaderFrame()
    default: return nextLine()
    }
  }

  // MARK: - Stream start

  /// Drops a leading UTF-8 BOM; false while too few bytes have arrived to tell.
  private mutating func stripByteOrderMark() -> Bool {
    let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
    let available = buffer.count - start
    let prefix = Array(buffer[start..<start + min(available, 3)])
    if prefix == Array(bom.prefix(prefix.count)) {
      guard prefix.count == 3 else { return false }
      start += 3
      scanFrom = max(scanFrom, start)
    }
    atStreamStart = false
    return true
  }

  private mutating func skipBlank() {
    while start < buffer.count, HeaderBlock.isBlank(buffer[start]) { start += 1 }
    scanFrom = max(scanFrom, start)
  }

  // MARK: - Newline-delimited JSON

  private mutating func nextLine() -> Event? {
    while true {
      guard let newline = indexOfNewline(from: max(scanFrom, start)) else {
        scanFrom = buffer.count
        if discardingLine {
          start = buffer.count
          return nil
        }
        if buffer.count - start > maxFrameBytes {
          discardingLine = true
          start = buffer.count
          return .tooLarge(limit: maxFrameBytes, size: nil)
        }
        return nil
      }
      let lineStart = start
      start = newline + 1
      scanFrom = start
      if discardingLine {
        discardingLine = false
        continue
      }
      var lineEnd = newline
      if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
      if buffer[lineStart..<lineEnd].allSatisfy(HeaderBlock.isBlank) { continue }
      // The size of a line is known only when it arrived whole, so it is never reported: the event does
      // not depend on how the bytes were chunked.
      if lineEnd - lineStart > maxFrameBytes { return .tooLarge(limit: maxFrameBytes, size: nil) }
      return .frame(Array(buffer[lineStart..<lineEnd]))
    }
  }

  private func indexOfNewline(from offset: Int) -> Int? {
    guard offset < buffer.count else { return nil }
    return buffer.withUnsafeBufferPointer { all in
      guard let base = all.baseAddress else { return nil }
      guard let found = memchrIndex(base + offset, count: all.count - offset, byte: 0x0A) else { return nil }
      return offset + found
    }
  }

  // MARK: - Content-Length headers

  private mutating func nextHeaderFrame() -> Event? {
    while true {
      if bodyBytesToSkip > 0 {
        let skipped = min(bodyBytesToSkip, buffer.count - start)
        start += skipped
        bodyBytesToSkip -= skipped
        if bodyBytesToSkip > 0 { return nil }
      }
      if resynchronising {
        guard skipToHeaderLine() else { return nil }
      }
      skipBlank()
      guard start < buffer.count else { return nil }
      switch HeaderBlock.parse(buffer, from: start) {
      case .needMore:
        if buffer.count - start > Self.maxHeaderBytes {
          start = buffer.count
          resynchronising = true
          return .badHeader("header block longer than \(Self.maxHeaderBytes) bytes")
        }
        return nil
      case .bad(let reason, let end):
        start = end
        resynchronising = true
        return .badHeader(reason)
      case .header(let length, let bodyStart):
        if length > maxFrameBytes {
          start = bodyStart
          bodyBytesToSkip = length
          skippedHead = Array(buffer[bodyStart..<min(buffer.count, bodyStart + Self.skippedHeadBytes)])
          return .tooLarge(limit: maxFrameBytes, size: length)
        }
        guard buffer.count - bodyStart >= length else { return nil }
        start = bodyStart + length
        return .frame(Array(buffer[bodyStart..<start]))
      }
    }
  }

  /// Skips to the next `Content-Length` (any case), wherever it starts: after a frame whose length
  /// was unreadable, the next header may follow its body on the same line. False if more bytes are needed.
  private mutating func skipToHeaderLine() -> Bool {
    let marker = Array("content-length".utf8)
    var candidate = start
    while candidate + marker.count <= buffer.count {
      if buffer[candidate] | 0x20 == marker[0],
        zip(buffer[candidate..<candidate + marker.count], marker).allSatisfy({ $0 | 0x20 == $1 })
      {
        start = candidate
        scanFrom = max(scanFrom, start)
        resynchronising = false
        return true
      }
      candidate += 1
    }
    // Keep a tail that may be the beginning of the marker.
    start = max(start, buffer.count - (marker.count - 1))
    return false
  }

  /// At end of input: a last NDJSON line without its newline is still a frame (`printf '%s' ...`
  /// from a shell); an LSP frame cut short is reported.
  public mutating func finish() -> Event? {
    defer { start = buffer.count }
    let rest = buffer[start...]
    guard !discardingLine, !rest.allSatisfy(HeaderBlock.isBlank) else { return nil }
    switch framing {
    case .lsp?: return .badHeader("input ended inside a frame")
    default:
      var end = buffer.count
      while end > start, HeaderBlock.isBlank(buffer[end - 1]) { end -= 1 }
      guard end - start <= maxFrameBytes else { return .tooLarge(limit: maxFrameBytes, size: nil) }
      framing = framing ?? .ndjson
      return .frame(Array(buffer[start..<end]))
    }
  }
}
