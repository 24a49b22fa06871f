import Testing

@testable import InboxSync

/// One reply as bytes, and what the parser must make of it.
struct ParserCase: CustomTestStringConvertible, Sendable {
  enum Expected: Sendable {
    /// Status, body, and the headers when given (lower-cased names).
    case reply(Int, String, [String: String]? = nil)
    case failure(HTTPResponseParser.Failure)
    /// More bytes are needed.
    case incomplete
  }

  var name: String
  var input: String
  /// Whether the connection closes after `input`.
  var closes = false
  var maxBody = 100
  var maxHead = 64 * 1024
  var expected: Expected

  var testDescription: String { name }

  static let ok = "HTTP/1.1 200 OK\r\n"
  static let chunked = ok + "Transfer-Encoding: chunked\r\n\r\n"
  static let cut = "the connection closed in the middle of the reply's chunked body"

  static let all: [ParserCase] = [
    // Status lines
    .init(name: "200 with a body", input: ok + "Content-Length: 5\r\n\r\nhello", expected: .reply(200, "hello")),
    .init(name: "HTTP/1.0, no reason", input: "HTTP/1.0 404\r\nContent-Length: 0\r\n\r\n", expected: .reply(404, "")),
    .init(
      name: "reason with spaces", input: "HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\nno",
      expected: .reply(503, "no")),
    .init(name: "bare LF line ends", input: "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", expected: .reply(200, "ok")),
    .init(
      name: "interim 100 skipped", input: "HTTP/1.1 100 Continue\r\n\r\n" + ok + "Content-Length: 2\r\n\r\nok",
      expected: .reply(200, "ok")),
    .init(
      name: "HTTP/2 is not HTTP/1.x", input: "HTTP/2 200\r\n\r\n",
      expected: .failure(.malformed("the reply's status line is not HTTP/1.x: \"HTTP/2 200\""))),
    .init(
      name: "two-digit status", input: "HTTP/1.1 20 OK\r\n\r\n",
      expected: .failure(.malformed("the reply's status line is not HTTP/1.x: \"HTTP/1.1 20 OK\""))),
    .init(
      name: "status below 100", input: "HTTP/1.1 099 Odd\r\n\r\n",
      expected: .failure(.malformed("the reply's status 99 is not an HTTP status"))),
    .init(
      name: "garbage", input: "SSH-2.0-OpenSSH_9.2\r\n",
      expected: .failure(.malformed("the reply is not HTTP (it does not begin with an HTTP/1.x status line)"))),
    .init(
      name: "garbage before any line end", input: "<html>",
      expected: .failure(.malformed("the reply is not HTTP (it does not begin with an HTTP/1.x status line)"))),
    .init(
      name: "nothing, then close", input: "", closes: true,
      expected: .failure(.truncated("the connection closed before any reply"))),
    .init(
      name: "half a head, then close", input: ok + "Content-Le", closes: true,
      expected: .failure(.truncated("the connection closed before the end of the reply's headers"))),
    .init(name: "half a head", input: ok + "Content-Le", expected: .incomplete),

    // Headers
    .init(
      name: "names in any case, values trimmed", input: ok + "CONTENT-length: 1\r\nX-Thing: \t a b \r\n\r\n1",
      expected: .reply(200, "1", ["content-length": "1", "x-thing": "a b"])),
    .init(
      name: "a repeated header joined", input: ok + "Via: a\r\nVIA: b\r\nContent-Length: 0\r\n\r\n",
      expected: .reply(200, "", ["via": "a, b", "content-length": "0"])),
    .init(
      name: "obsolete folding joined with a space",
      input: ok + "X-Long: one\r\n   two\r\n\tthree\r\nContent-Length: 0\r\n\r\n",
      expected: .reply(200, "", ["x-long": "one two three", "content-length": "0"])),
    .init(
      name: "folding with no header before", input: ok + " folded\r\n\r\n",
      expected: .failure(.malformed("the reply's first header line is a continuation line"))),
    .init(
      name: "a header line without a colon", input: ok + "Nonsense\r\n\r\n",
      expected: .failure(.malformed("the reply has a header line that is not `name: value`: \"Nonsense\""))),
    .init(
      name: "a space before the colon", input: ok + "Name : v\r\n\r\n",
      expected: .failure(.malformed("the reply has a header line that is not `name: value`: \"Name : v\""))),
    .init(
      name: "headers over the limit", input: ok + "X-Big: " + String(repeating: "x", count: 100) + "\r\n\r\n",
      maxHead: 64, expected: .failure(.malformed("the reply's headers are longer than 64 bytes"))),
    .init(
      name: "a Location kept", input: "HTTP/1.1 302 Found\r\nLocation: /elsewhere/\r\nContent-Length: 0\r\n\r\n",
      expected: .reply(302, "", ["location": "/elsewhere/", "content-length": "0"])),

    // Content-Length
    .init(
      name: "bytes after the body ignored", input: ok + "Content-Length: 2\r\n\r\nokEXTRA", expected: .reply(200, "ok")),
    .init(
      name: "a list of equal lengths", input: ok + "Content-Length: 2, 2\r\n\r\nok", expected: .reply(200, "ok")),
    .init(
      name: "a list of different lengths", input: ok + "Content-Length: 2, 3\r\n\r\nok",
      expected: .failure(.malformed("the reply's Content-Length is not a number: 2, 3"))),
    .init(
      name: "a negative length", input: ok + "Content-Length: -1\r\n\r\n",
      expected: .failure(.malformed("the reply's Content-Length is not a number: -1"))),
    .init(
      name: "a signed length", input: ok + "Content-Length: +2\r\n\r\nok",
      expected: .failure(.malformed("the reply's Content-Length is not a number: +2"))),
    .init(
      name: "a length past Int", input: ok + "Content-Length: 99999999999999999999\r\n\r\n",
      expected: .failure(.malformed("the reply's Content-Length is not a number: 99999999999999999999"))),
    .init(
      name: "a length over the limit fails before the body", input: ok + "Content-Length: 101\r\n\r\n",
      expected: .failure(.tooLarge(limit: 100))),
    .init(
      name: "a body cut short", input: ok + "Content-Length: 5\r\n\r\nhel", closes: true,
      expected: .failure(.truncated("the connection closed after 3 of the 5 bytes of the reply's body"))),
    .init(name: "a body still coming", input: ok + "Content-Length: 5\r\n\r\nhel", expected: .incomplete),
    .init(name: "204 has no body", input: "HTTP/1.1 204 No Content\r\n\r\n", expected: .reply(204, "")),
    .init(
      name: "304 has no body, whatever its length says",
      input: "HTTP/1.1 304 Not Modified\r\nContent-Length: 9\r\n\r\n",
      expected: .reply(304, "")),

    // Chunked
    .init(
      name: "chunked", input: chunked + "4\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n", expected: .reply(200, "Wikipedia")),
    .init(
      name: "chunk extensions and upper-case hex",
      input: chunked + "4;name=value\r\nWiki\r\nA ; x\r\n0123456789\r\n0\r\n\r\n",
      expected: .reply(200, "Wiki0123456789")),
    .init(
      name: "trailers skipped", input: chunked + "2\r\nok\r\n0\r\nX-Checksum: 1\r\nX-More: 2\r\n\r\n",
      expected: .reply(200, "ok")),
    .init(
      name: "chunked wins over Content-Length",
      input: ok + "Content-Length: 99\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n\r\n",
      expected: .reply(200, "ok")),
    .init(
      name: "chunked as the last of two codings",
      input: ok + "Transfer-Encoding: gzip, Chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n",
      expected: .reply(200, "z")),
    .init(name: "cut in a chunk", input: chunked + "9\r\nWiki", closes: true, expected: .failure(.truncated(cut))),
    .init(
      name: "cut before the last chunk", input: chunked + "2\r\nok\r\n", closes: true,
      expected: .failure(.truncated(cut))),
    .init(
      name: "cut in the trailers", input: chunked + "0\r\nX-T: 1\r\n", closes: true, expected: .failure(.truncated(cut))
    ),
    .init(name: "a chunk still coming", input: chunked + "9\r\nWiki", expected: .incomplete),
    .init(
      name: "a chunk longer than its size", input: chunked + "2\r\nokay\r\n0\r\n\r\n",
      expected: .failure(.malformed("a chunk of the reply's body is longer than its size says"))),
    .init(
      name: "a size that is not hex", input: chunked + "zz\r\n",
      expected: .failure(.malformed("a chunk size line of the reply is not hexadecimal: \"zz\""))),
    .init(
      name: "an empty size line", input: chunked + "\r\n",
      expected: .failure(.malformed("a chunk size line of the reply is empty"))),
    .init(
      name: "an extension with no size", input: chunked + ";x\r\n",
      expected: .failure(.malformed("a chunk size line of the reply has no size"))),
    .init(
      name: "an impossible size", input: chunked + "1000000000000000\r\n",
      expected: .failure(.malformed("a chunk of the reply is impossibly large"))),
    .init(
      name: "chunks over the limit", input: chunked + "40\r\n" + String(repeating: "x", count: 64) + "\r\n40\r\n",
      expected: .failure(.tooLarge(limit: 100))),

    // Until the close
    .init(name: "a body until the close", input: ok + "\r\nabc", closes: true, expected: .reply(200, "abc")),
    .init(name: "a body before the close", input: ok + "\r\nabc", expected: .incomplete),
    .init(
      name: "another coding runs until the close", input: ok + "Transfer-Encoding: gzip\r\n\r\nabc", closes: true,
      expected: .reply(200, "abc")),
    .init(
      name: "a body until the close over the limit", input: ok + "\r\n" + String(repeating: "x", count: 101),
      expected: .failure(.tooLarge(limit: 100))),
  ]
}

/// The response parser, fed each reply whole, byte by byte, and split in two at every point.
struct HTTPResponseParserTests {
  enum Outcome: Equatable {
    case reply(HTTPResponseParser.Response)
    case failure(HTTPResponseParser.Failure)
    case incomplete
  }

  static func feed(_ row: ParserCase, _ chunks: [[UInt8]]) -> Outcome {
    var parser = HTTPResponseParser(maxBodyBytes: row.maxBody, maxHeadBytes: row.maxHead)
    do {
      for chunk in chunks {
        if let response = try parser.consume(chunk) { return .reply(response) }
      }
      return row.closes ? .reply(try parser.end()) : .incomplete
    } catch {
      return .failure(error)
    }
  }

  @Test(arguments: ParserCase.all)
  func parses(_ row: ParserCase) {
    let bytes = Array(row.input.utf8)
    var feeds: [(String, [[UInt8]])] = [("whole", [bytes]), ("byte by byte", bytes.map { [$0] })]
    for split in 0...bytes.count {
      feeds.append(("split at \(split)", [Array(bytes[..<split]), Array(bytes[split...])]))
    }
    for (how, chunks) in feeds {
      let outcome = Self.feed(row, chunks)
      switch (row.expected, outcome) {
      case (.reply(let status, let body, let headers), .reply(let response)):
        #expect(response.status == status, "\(how)")
        #expect(String(decoding: response.body, as: UTF8.self) == body, "\(how)")
        if let headers { #expect(response.headers == headers, "\(how)") }
      case (.failure(let expected), .failure(let failure)):
        #expect(failure == expected, "\(how)")
      case (.incomplete, .incomplete):
        break
      default:
        Issue.record("\(how): expected \(row.expected), got \(outcome)")
      }
    }
  }

  /// A large body arrives in big reads straight into the body, and the same bytes come out.
  @Test func largeBodyInBigReads() throws {
    let body = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
    let bytes = head + body
    var parser = HTTPResponseParser(maxBodyBytes: 1 << 20)
    var response: HTTPResponseParser.Response?
    var offset = 0
    while response == nil && offset < bytes.count {
      let end = min(bytes.count, offset + 65_536)
      response = try parser.consume(bytes[offset..<end])
      offset = end
    }
    #expect(response?.body == body)
  }
}
