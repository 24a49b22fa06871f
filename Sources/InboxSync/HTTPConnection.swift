internal import COpenSSL
import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// One TCP connection to a server, with TLS over it for https: the only code that touches the
/// socket and the `SSL *`.
///
/// The socket is non-blocking from the start; every step (connect, handshake, write, read) that
/// would block waits with `poll` in slices of `TransferDeadline.slice`, so none outlives its deadline
/// or a cancel by more than a slice. Closing (on `deinit`) is abrupt: the request asked for
/// `Connection: close`, so nothing more is owed to the server.
final class HTTPConnection {
  private let fd: Int32
  private var tls: OpaquePointer?
  /// `host port N`, for messages: the server's, or the proxy's until a tunnel leads to the server.
  private var peer: String

  private init(fd: Int32, peer: String) {
    self.fd = fd
    self.peer = peer
  }

  deinit {
    if let tls { SSL_free(tls) }
    close(fd)
  }

  /// Resolves the host (or the proxy's), connects to its addresses in turn until one accepts, asks
  /// a proxy for a tunnel, and, for https, runs the TLS handshake with the host: all within `deadline`.
  static func open(_ url: HTTPURL, tls context: TLSContext?, via proxy: HTTPProxy?, by deadline: TransferDeadline)
    throws(HTTPTransfer.Failure) -> HTTPConnection
  {
    let (host, port) = proxy.map { ($0.host, $0.port) } ?? (url.host, url.port)
    let peer = proxy?.hostAndPort ?? url.hostAndPort
    let addresses = try HostResolver.resolve(host, port: port, by: deadline)
    var lastFailure = HTTPTransfer.Failure.transport(reason: "cannot connect to \(peer)")
    for address in addresses {
      let connection: HTTPConnection
      do {
        connection = try connect(to: address, peer: peer, by: deadline)
      } catch {
        // Refused or unreachable: the next address may do, while time is left.
        guard case .transport = error, deadline.nextSlice > 0 else { throw error }
        lastFailure = error
        continue
      }
      if let proxy { try connection.tunnel(to: url, through: proxy, by: deadline) }
      if let context { try connection.handshake(context, host: url.host, by: deadline) }
      return connection
    }
    throw lastFailure
  }

  private static func connect(to address: HostResolver.Address, peer: String, by deadline: TransferDeadline)
    throws(HTTPTransfer.Failure) -> HTTPConnection
  {
    let fd = socket(address.family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw systemFailure("cannot open a socket") }
    let connection = HTTPConnection(fd: fd, peer: peer)
    var noDelay: Int32 = 1
    _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &noDelay, socklen_t(MemoryLayout<Int32>.size))
    var storage = address.storage
    let started = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, address.length) }
    }
    if started == 0 { return connection }
    guard errno == EINPROGRESS || errno == EINTR else { throw systemFailure("cannot connect to \(peer)") }
    try deadline.wait(for: fd, POLLOUT, "connecting to \(peer)")
    var error: Int32 = 0
    var length = socklen_t(MemoryLayout<Int32>.size)
    guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 else {
      throw systemFailure("cannot connect to \(peer)")
    }
    guard error == 0 else {
      throw .transport(reason: "cannot connect to \(peer): \(String(cString: strerror(error)))")
    }
    return connection
  }

  /// `CONNECT host:port` to the proxy, whose answer is read a byte at a time so that nothing of
  /// what follows it (the server's, inside the tunnel) is taken: a 2xx opens the tunnel, anything
  /// else is a refusal, named with the proxy's status.
  private func tunnel(to url: HTTPURL, through proxy: HTTPProxy, by deadline: TransferDeadline)
    throws(HTTPTransfer.Failure)
  {
    var head = "CONNECT \(url.authority) HTTP/1.1\r\nHost: \(url.authority)\r\n"
    if let authorization = proxy.authorization { head += "Proxy-Authorization: \(authorization)\r\n" }
    try write(Array((head + "\r\n").utf8), by: deadline)
    var parser = HTTPResponseParser(maxBodyBytes: 0, maxHeadBytes: 16 * 1024, headOnly: true)
    var byte: [UInt8] = [0]
    while true {
      let count = try read(into: &byte, by: deadline)
      let answer: HTTPResponseParser.Response?
      do {
        answer = count == 0 ? try parser.end() : try parser.consume(byte)
      } catch {
        throw .transport(reason: "\(proxy.description) did not answer CONNECT: \(error.reason)")
      }
      guard let answer else { continue }
      guard (200..<300).contains(answer.status) else {
        throw .transport(
          reason: "\(proxy.description) refused the tunnel to \(url.hostAndPort): HTTP \(answer.status)")
      }
      peer = url.hostAndPort
      return
    }
  }

  /// The TLS handshake, the server's certificate checked against the context's CAs and against
  /// `host` (its DNS name, or its IP address for a numeric host); SNI names the host when it is a name.
  private func handshake(_ context: TLSContext, host: String, by deadline: TransferDeadline)
    throws(HTTPTransfer.Failure)
  {
    ERR_clear_error()
    guard let tls = SSL_new(context.pointer) else {
      throw .transport(reason: "TLS: cannot start a session: \(TLSContext.errorText())")
    }
    self.tls = tls
    guard SSL_set_fd(tls, fd) == 1 else {
      throw .transport(reason: "TLS: cannot attach the socket: \(TLSContext.errorText())")
    }
    if HostResolver.isNumeric(host) {
      guard X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(tls), host) == 1 else {
        throw .transport(reason: "TLS: cannot check certificates for \(host): \(TLSContext.errorText())")
      }
    } else {
      guard cssl_set_tlsext_host_name(tls, host) == 1, SSL_set1_host(tls, host) == 1 else {
        throw .transport(reason: "TLS: cannot check certificates for \(host): \(TLSContext.errorText())")
      }
    }
    while true {
      ERR_clear_error()
      let result = SSL_connect(tls)
      let error = errno
      if result == 1 { return }
      let code = SSL_get_error(tls, result)
      switch code {
      case SSL_ERROR_WANT_READ: try deadline.wait(for: fd, POLLIN, "in the TLS handshake with \(peer)")
      case SSL_ERROR_WANT_WRITE: try deadline.wait(for: fd, POLLOUT, "in the TLS handshake with \(peer)")
      default:
        let verdict = SSL_get_verify_result(tls)
        if verdict != X509_V_OK {
          throw .transport(
            reason:
              "TLS: the certificate of \(peer) is not accepted: \(String(cString: X509_verify_cert_error_string(verdict)))"
          )
        }
        throw .transport(reason: "TLS handshake with \(peer) failed: \(failureText(code, error))")
      }
    }
  }

  /// Sends every byte, within `deadline`.
  func write(_ bytes: [UInt8], by deadline: TransferDeadline) throws(HTTPTransfer.Failure) {
    let activity = "sending the request to \(peer)"
    var offset = 0
    while offset < bytes.count {
      try deadline.check(activity)
      let count = bytes.withUnsafeBytes { raw in
        let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
        if let tls {
          ERR_clear_error()
          return Int(SSL_write(tls, rest.baseAddress, Int32(min(rest.count, Int(Int32.max)))))
        }
        return send(fd, rest.baseAddress, rest.count, Int32(MSG_NOSIGNAL))
      }
      if count > 0 {
        offset += count
      } else if try !retry(after: count, POLLOUT, by: deadline, activity) {
        throw .transport(reason: "the connection to \(peer) closed while sending the request")
      }
    }
  }

  /// Reads what has arrived into `buffer`, waiting for something within `deadline`: how many bytes,
  /// 0 at the end of the connection.
  func read(into buffer: inout [UInt8], by deadline: TransferDeadline) throws(HTTPTransfer.Failure) -> Int {
    let activity = "waiting for the reply from \(peer)"
    while true {
      try deadline.check(activity)
      let count = buffer.withUnsafeMutableBytes { raw in
        if let tls {
          ERR_clear_error()
          return Int(SSL_read(tls, raw.baseAddress, Int32(min(raw.count, Int(Int32.max)))))
        }
        return recv(fd, raw.baseAddress, raw.count, 0)
      }
      if count > 0 { return count }
      if try !retry(after: count, POLLIN, by: deadline, activity) { return 0 }
    }
  }

  /// After a read or a write that moved nothing (`result` <= 0): true once it is worth trying again
  /// (interrupted, or the socket is ready after a wait: for `events`, or for what TLS asks), false at
  /// the end of the connection; throws on an error.
  private func retry(after result: Int, _ events: Int32, by deadline: TransferDeadline, _ activity: String)
    throws(HTTPTransfer.Failure) -> Bool
  {
    let error = errno
    if let tls {
      let code = SSL_get_error(tls, Int32(result))
      switch code {
      case SSL_ERROR_ZERO_RETURN: return false
      case SSL_ERROR_WANT_READ: try deadline.wait(for: fd, POLLIN, activity)
      case SSL_ERROR_WANT_WRITE: try deadline.wait(for: fd, POLLOUT, activity)
      default: throw .transport(reason: "\(activity) failed: \(failureText(code, error))")
      }
      return true
    }
    if result == 0 { return false }
    switch error {
    case EINTR: return true
    case EAGAIN, EWOULDBLOCK: try deadline.wait(for: fd, events, activity)
    default: throw .transport(reason: "\(activity) failed: \(String(cString: strerror(error)))")
    }
    return true
  }

  /// Words for a failed TLS call: OpenSSL's reason, or the system's, or what a bare end means.
  private func failureText(_ code: Int32, _ error: Int32) -> String {
    if code == SSL_ERROR_SYSCALL && error != 0 { return String(cString: strerror(error)) }
    return TLSContext.errorText(or: "the connection closed")
  }

  private static func systemFailure(_ what: String) -> HTTPTransfer.Failure {
    .transport(reason: "\(what): \(String(cString: strerror(errno)))")
  }
}
