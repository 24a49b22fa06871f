/// Reads one HTTP/1.x response from the bytes of a connection as they arrive: a pure state machine
/// with no I/O, fed whole replies, single bytes or anything between.
///
/// `consume` takes the next bytes read and returns the response once it is complete; `end` says the
/// connection closed, which completes a body delimited by the close and is an error anywhere else.
/// What it accepts (RFC 9112): a status line `HTTP/1.x NNN reason`, lines ending in CRLF or a bare
/// LF, header names in any case (kept lower-cased; a repeated header's values joined with `, `),
/// obsolete line folding (joined with a space), interim 1xx responses (skipped); a body framed by
/// `Transfer-Encoding: chunked` (extensions and trailers skipped), by `Content-Length`, or by the
/// end of the connection; none after 1xx, 204 and 304. A body larger than `maxBodyBytes` fails as
/// soon as that is known (from `Content-Length`, before reading it).
struct HTTPResponseParser {
  struct Response: Equatable {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: [UInt8]
  }

  enum Failure: Error, Equatable {
    /// Not an HTTP/1.x response, or one with broken framing.
    case malformed(String)
    /// The connection closed before the response was complete.
    case truncated(String)
    /// The body is larger than the limit.
    case tooLarge(limit: Int)

    /// In words, for a message.
    var reason: String {
      switch self {
      case .malformed(let reason), .truncated(let reason): reason
      case .tooLarge(let limit): "the reply's body is larger than \(limit) bytes"
      }
    }
  }

  let maxBodyBytes: Int
  let maxHeadBytes: Int
  /// Whether the response ends with its head (a proxy's answer to CONNECT: a 2xx has no body and
  /// the tunnel follows; any other answer is a refusal whose body nobody needs).
  let headOnly: Bool

  private enum State: Equatable {
    case statusLine
    case headerLines
    case fixed(remaining: Int)
    case chunkSize
    case chunkData(remaining: Int)
    case chunkEnd
    case trailers
    case untilClose
    case done
  }

  private var state = State.statusLine
  /// Bytes received and not yet used; `start` is the first unused one.
  private var pending: [UInt8] = []
  private var start = 0
  private var received = 0
  /// Bytes of the current head or trailer section so far.
  private var sectionBytes = 0
  private var status = 0
  private var headers: [String: String] = [:]
  private var lastHeader: String?
  private var body: [UInt8] = []
  private var expectedLength = 0

  init(maxBodyBytes: Int, maxHeadBytes: Int = 64 * 1024, headOnly: Bool = false) {
    self.maxBodyBytes = maxBodyBytes
    self.maxHeadBytes = maxHeadBytes
    self.headOnly = headOnly
  }

  /// Takes the next bytes read from the connection; the response once it is complete (bytes after
  /// it are ignored), nil while more are needed.
  mutating func consume(_ bytes: some Collection<UInt8>) throws(Failure) -> Response? {
    guard state != .done else { return response }
    received += bytes.count
    var rest = bytes[...]
    if start == pending.count {
      // Nothing waits before these bytes: body bytes go straight to the body, not through `pending`.
      pending.removeAll(keepingCapacity: true)
      start = 0
      switch state {
      case .fixed(let remaining):
        let taken = rest.prefix(remaining)
        body.append(contentsOf: taken)
        rest = rest.dropFirst(taken.count)
        state = remaining == taken.count ? .done : .fixed(remaining: remaining - taken.count)
      case .untilClose:
        guard body.count + rest.count <= maxBodyBytes else { throw .tooLarge(limit: maxBodyBytes) }
        body.append(contentsOf: rest)
        rest = rest.dropFirst(rest.count)
      default:
        break
      }
    }
    pending.append(contentsOf: rest)
    try advance()
    if start > 0 && (start == pending.count || start >= 64 * 1024) {
      pending.removeFirst(start)
      start = 0
    }
    return state == .done ? response : nil
  }

  /// The connection reached its end: the response, when it was complete or its body runs to the end;
  /// otherwise what was cut short.
  mutating func end() throws(Failure) -> Response {
    switch state {
    case .done:
      return response
    case .untilClose:
      state = .done
      return response
    case .statusLine where received == 0:
      throw .truncated("the connection closed before any reply")
    case .statusLine, .headerLines:
      throw .truncated("the connection closed before the end of the reply's headers")
    case .fixed(let remaining):
      throw .truncated(
        "the connection closed after \(expectedLength - remaining) of the \(expectedLength) bytes of the reply's body")
    case .chunkSize, .chunkData, .chunkEnd, .trailers:
      throw .truncated("the connection closed in the middle of the reply's chunked body")
    }
  }

  private var response: Response { Response(status: status, headers: headers, body: body) }

  // MARK: - States

  private mutating func advance() throws(Failure) {
    let limit = maxHeadBytes
    while true {
      switch state {
      case .statusLine:
        try checkStatusLinePrefix()
        guard let line = try nextLine(limit: limit, tooLong: "the reply's headers are longer than \(limit) bytes")
        else { return }
        try parseStatusLine(line)
        state = .headerLines
      case .headerLines:
        guard let line = try nextLine(limit: limit, tooLong: "the reply's headers are longer than \(limit) bytes")
        else { return }
        if line.isEmpty {
          try startBody()
        } else {
          try parseHeaderLine(line)
        }
      case .fixed(let remaining):
        let taken = takeBody(upTo: remaining)
        guard taken > 0 || remaining == 0 else { return }
        state = remaining == taken ? .done : .fixed(remaining: remaining - taken)
      case .chunkSize:
        sectionBytes = 0
        guard let line = try nextLine(limit: 4096, tooLong: "a chunk size line of the reply is too long") else {
          return
        }
        let size = try Self.chunkSize(line)
        guard body.count + size <= maxBodyBytes else { throw .tooLarge(limit: maxBodyBytes) }
        if size == 0 {
          sectionBytes = 0
          state = .trailers
        } else {
          state = .chunkData(remaining: size)
        }
      case .chunkData(let remaining):
        let taken = takeBody(upTo: remaining)
        guard taken > 0 else { return }
        state = remaining == taken ? .chunkEnd : .chunkData(remaining: remaining - taken)
      case .chunkEnd:
        // CRLF (or a bare LF) must follow the chunk's data.
        let next = pending[start...].prefix(2)
        guard let first = next.first else { return }
        if first == 0x0D && next.count < 2 { return }
        if first == 0x0A {
          start += 1
        } else if next.elementsEqual([0x0D, 0x0A]) {
          start += 2
        } else {
          throw .malformed("a chunk of the reply's body is longer than its size says")
        }
        state = .chunkSize
      case .trailers:
        guard let line = try nextLine(limit: limit, tooLong: "the reply's trailers are longer than \(limit) bytes")
        else {
          return
        }
        if line.isEmpty { state = .done }
      case .untilClose:
        let available = pending.count - start
        guard available > 0 else { return }
        guard body.count + available <= maxBodyBytes else { throw .tooLarge(limit: maxBodyBytes) }
        _ = takeBody(upTo: available)
        return
      case .done:
        return
      }
    }
  }

  /// Fails early on a reply that cannot be HTTP, rather than waiting for a line end that may never come.
  private func checkStatusLinePrefix() throws(Failure) {
    let prefix = Array("HTTP/".utf8)
    let available = pending[start...].prefix(prefix.count)
    guard available.elementsEqual(prefix.prefix(available.count)) else {
      throw .malformed("the reply is not HTTP (it does not begin with an HTTP/1.x status line)")
    }
  }

  private mutating func parseStatusLine(_ line: ArraySlice<UInt8>) throws(Failure) {
    // HTTP/1.x SP 3DIGIT [SP reason]
    let bytes = Array(line)
    let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
    guard bytes.count >= 12, bytes[0..<7].elementsEqual("HTTP/1.".utf8), isDigit(bytes[7]), bytes[8] == 0x20,
      bytes[9...11].allSatisfy(isDigit), bytes.count == 12 || bytes[12] == 0x20
    else {
      throw .malformed("the reply's status line is not HTTP/1.x: \(Self.shown(line))")
    }
    status = bytes[9...11].reduce(0) { $0 * 10 + Int($1 - 0x30) }
    guard status >= 100 else { throw .malformed("the reply's status \(status) is not an HTTP status") }
  }

  private mutating func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(Failure) {
    if let first = line.first, first == 0x20 || first == 0x09 {
      // Obsolete line folding: the line continues the previous header's value.
      guard let name = lastHeader, let value = headers[name] else {
        throw .malformed("the reply's first header line is a continuation line")
      }
      let more = Self.trimmed(line)
      headers[name] = value.isEmpty ? more : more.isEmpty ? value : value + " " + more
      return
    }
    guard let colon = line.firstIndex(of: 0x3A), colon > line.startIndex,
      line[..<colon].allSatisfy(Self.isTokenByte)
    else {
      throw .malformed("the reply has a header line that is not `name: value`: \(Self.shown(line))")
    }
    let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
    let value = Self.trimmed(line[(colon + 1)...])
    if let earlier = headers[name] {
      headers[name] = earlier + ", " + value
    } else {
      headers[name] = value
    }
    lastHeader = name
  }

  /// The head is complete: an interim response starts over, a final one picks how its body is framed.
  private mutating func startBody() throws(Failure) {
    if status < 200 {
      headers = [:]
      lastHeader = nil
      sectionBytes = 0
      state = .statusLine
      return
    }
    if headOnly || status == 204 || status == 304 {
      state = .done
      return
    }
    if let codings = headers["transfer-encoding"] {
      // The last coding decides: chunked has an end of its own; anything else runs to the close.
      let last = codings.split(separator: ",").last.map { Self.trimmed($0.utf8).lowercased() }
      state = last == "chunked" ? .chunkSize : .untilClose
      return
    }
    if let text = headers["content-length"] {
      // A list of identical values is allowed (RFC 9110 §8.6); anything else is an attack or a bug.
      let values = Set(text.split(separator: ",", omittingEmptySubsequences: false).map { Self.trimmed($0.utf8) })
      guard values.count == 1, let only = values.first, !only.isEmpty,
        only.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let length = Int(only)
      else {
        throw .malformed("the reply's Content-Length is not a number: \(text.prefix(40))")
      }
      guard length <= maxBodyBytes else { throw .tooLarge(limit: maxBodyBytes) }
      expectedLength = length
      body.reserveCapacity(min(length, 16 * 1024 * 1024))
      state = .fixed(remaining: length)
      return
    }
    state = .untilClose
  }

  // MARK: - Bytes

  /// The next line without its CRLF (or bare LF), or nil when it has not all arrived. The section
  /// (`sectionBytes`: this line and the ones before it in the same head or trailers) may not grow
  /// past `limit`: that fails with `tooLong`.
  private mutating func nextLine(limit: Int, tooLong: @autoclosure () -> String) throws(Failure)
    -> ArraySlice<UInt8>?
  {
    guard let newline = pending[start...].firstIndex(of: 0x0A) else {
      if sectionBytes + pending.count - start > limit { throw .malformed(tooLong()) }
      return nil
    }
    sectionBytes += newline + 1 - start
    if sectionBytes > limit { throw .malformed(tooLong()) }
    var line = pending[start..<newline]
    if line.last == 0x0D { line = line.dropLast() }
    start = newline + 1
    return line
  }

  /// Moves up to `count` pending bytes into the body; how many it moved.
  private mutating func takeBody(upTo count: Int) -> Int {
    let taken = min(count, pending.count - start)
    body.append(contentsOf: pending[start..<(start + taken)])
    start += taken
    return taken
  }

  /// `1a3f[;extension...]`: hexadecimal digits, then nothing, white space or extensions.
  private static func chunkSize(_ line: ArraySlice<UInt8>) throws(Failure) -> Int {
    var size = 0
    var digits = 0
    for byte in line {
      let value: Int
      switch byte {
      case 0x30...0x39: value = Int(byte - 0x30)
      case 0x41...0x46: value = Int(byte - 0x41 + 10)
      case 0x61...0x66: value = Int(byte - 0x61 + 10)
      case 0x3B, 0x20, 0x09:
        guard digits > 0 else { throw .malformed("a chunk size line of the reply has no size") }
        return size
      default:
        throw .malformed("a chunk size line of the reply is not hexadecimal: \(shown(line))")
      }
      digits += 1
      guard digits <= 15 else { throw .malformed("a chunk of the reply is impossibly large") }
      size = size * 16 + value
    }
    guard digits > 0 else { throw .malformed("a chunk size line of the reply is empty") }
    return size
  }

  /// RFC 9110 `tchar`.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: return true
    default: return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }

  /// The text without leading and trailing spaces and tabs.
  private static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> String {
    let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }), let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return "" }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }

  /// A line as shown in a message: at most 60 bytes, control characters as `?`.
  private static func shown(_ line: ArraySlice<UInt8>) -> String {
    let clipped = line.prefix(60).map { $0 < 0x20 || $0 == 0x7F ? UInt8(ascii: "?") : $0 }
    return "\"" + String(decoding: clipped, as: UTF8.self) + (line.count > 60 ? "…\"" : "\"")
  }
}
