import Testing

@testable import InboxSync

/// HTTPTransfer against a loopback server: what goes on the wire, what comes back, and each way a
/// transfer can fail (refused, timed out, cancelled, cut short, too large, not TLS).
struct HTTPTransferTests {
  static let hello = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n"

  static func request(_ url: String, timeout: Double = 5, maxReplyBytes: Int = 1000) -> HTTPTransfer.Request {
    HTTPTransfer.Request(
      url: url, headers: ["Content-Type: application/json", "X-Test: 1"], body: Array("body".utf8),
      connectTimeout: timeout, timeout: timeout, maxReplyBytes: maxReplyBytes, userAgent: "inbox-rpc-tests/1")
  }

  static func failure(_ request: HTTPTransfer.Request, isCancelled: @escaping @Sendable () -> Bool = { false })
    -> HTTPTransfer.Failure?
  {
    do {
      let reply = try HTTPTransfer.perform(request, isCancelled: isCancelled)
      Issue.record("succeeded with HTTP \(reply.httpStatus)")
      return nil
    } catch {
      return error
    }
  }

  /// The request as sent, and the chunked reply as read; by IPv4, by IPv6 and by name (`localhost`
  /// may resolve to `::1` first, where nothing listens: the next address is tried).
  @Test(arguments: [("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("127.0.0.1", "localhost")])
  func postsAndReads(_ address: String, _ name: String) throws {
    guard let server = LoopbackServer(host: address, .reply(Self.hello)) else { return }  // no IPv6 here
    let host = name.contains(":") ? "[\(name)]" : name
    let reply = try HTTPTransfer.perform(
      Self.request("http://\(host):\(server.port)/json/1.3/getInboxMessages"), isCancelled: { false })
    #expect(reply.httpStatus == 200)
    #expect(String(decoding: reply.body, as: UTF8.self) == "hello")
    #expect(reply.redirectURL == nil)
    let expected =
      "POST /json/1.3/getInboxMessages HTTP/1.1\r\nHost: \(host):\(server.port)\r\nUser-Agent: inbox-rpc-tests/1\r\n"
      + "Content-Type: application/json\r\nX-Test: 1\r\nContent-Length: 4\r\nConnection: close\r\n\r\nbody"
    #expect(server.requests == [expected])
  }

  /// A redirect is not followed; its Location comes back absolute.
  @Test func redirectIsReturned() throws {
    let server = try #require(
      LoopbackServer(.reply("HTTP/1.1 302 Found\r\nLocation: /elsewhere/\r\nContent-Length: 0\r\n\r\n")))
    let reply = try HTTPTransfer.perform(Self.request("\(server.origin)/json/1.3/x"), isCancelled: { false })
    #expect(reply.httpStatus == 302)
    #expect(reply.redirectURL == "\(server.origin)/elsewhere/")
    #expect(server.requests.count == 1)
  }

  @Test func refusedConnection() throws {
    let port = try #require(LoopbackServer(.silent)).port  // closed again: nothing listens there now
    let failure = Self.failure(Self.request("http://127.0.0.1:\(port)/x"))
    #expect(failure == .transport(reason: "cannot connect to 127.0.0.1 port \(port): Connection refused"))
  }

  @Test func timesOutWaitingForTheReply() throws {
    let server = try #require(LoopbackServer(.silent))
    let started = ContinuousClock.now
    let failure = Self.failure(Self.request("\(server.origin)/x", timeout: 0.2))
    #expect(
      failure == .transport(reason: "timed out after 0.2 s waiting for the reply from 127.0.0.1 port \(server.port)"))
    #expect(ContinuousClock.now - started < .seconds(3))  // far from any other wait; loose for a busy machine
  }

  /// A cancel is seen within a poll slice, long before the time-out.
  @Test func cancelledWhileWaiting() throws {
    let server = try #require(LoopbackServer(.silent))
    let started = ContinuousClock.now
    let failure = Self.failure(Self.request("\(server.origin)/x", timeout: 10)) {
      ContinuousClock.now - started > .milliseconds(100)
    }
    #expect(failure == .cancelled)
    #expect(ContinuousClock.now - started < .seconds(2))  // the time-out is 10 s
  }

  @Test func bodyCutShort() throws {
    let server = try #require(LoopbackServer(.reply("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhalf")))
    let failure = Self.failure(Self.request("\(server.origin)/x"))
    #expect(failure == .transport(reason: "the connection closed after 4 of the 10 bytes of the reply's body"))
  }

  @Test func noReplyAtAll() throws {
    let server = try #require(LoopbackServer(.reply("")))
    let failure = Self.failure(Self.request("\(server.origin)/x"))
    #expect(failure == .transport(reason: "the connection closed before any reply"))
  }

  @Test func replyTooLarge() throws {
    let server = try #require(LoopbackServer(.reply("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 64))))
    let failure = Self.failure(Self.request("\(server.origin)/x", maxReplyBytes: 32))
    #expect(failure == .tooLarge(limit: 32))
  }

  /// https to a server that does not speak TLS fails in the handshake, naming the server.
  @Test func tlsToAPlainServer() throws {
    let server = try #require(LoopbackServer(.greet("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")))
    guard case .transport(let reason) = Self.failure(Self.request("https://127.0.0.1:\(server.port)/x")) else {
      Issue.record("not a transport failure")
      return
    }
    #expect(reason.hasPrefix("TLS handshake with 127.0.0.1 port \(server.port) failed: "), "\(reason)")
  }

  @Test func unreadableCAFile() {
    var request = Self.request("https://127.0.0.1:1/x")
    request.caFile = "/nonexistent/ca.pem"
    guard case .transport(let reason) = Self.failure(request) else {
      Issue.record("not a transport failure")
      return
    }
    #expect(reason.hasPrefix("TLS: cannot load CA certificates from /nonexistent/ca.pem: "), "\(reason)")
  }

  /// A header that would forge more headers is refused, and its text (perhaps the token) never shown.
  @Test func headerWithALineBreakIsRefused() throws {
    var request = Self.request("http://127.0.0.1:1/x")
    request.headers.append("Authorization: Token s3cret\r\nX-Forged: 1")
    let failure = Self.failure(request)
    #expect(failure == .transport(reason: "request header 3 is not a single `Name: value` line"))
  }
}
