import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A tiny HTTP server on a loopback port for the transfer tests: on a thread of its own it accepts
/// each connection and answers it as `behaviour` says, keeping every request it read.
final class LoopbackServer: @unchecked Sendable {
  enum Behaviour {
    /// Reads the request (head and `Content-Length` body), writes these bytes, closes.
    case reply(String)
    /// Writes these bytes as soon as a connection is accepted, without reading, and closes.
    case greet(String)
    /// Never accepts: a connection is made (the kernel's backlog) and never answered.
    case silent
  }

  let host: String
  let port: UInt16
  private let fd: Int32
  /// Whether a serving thread owns `fd`. That thread closes it, not `deinit`: a descriptor closed
  /// under a thread blocked in (or about to call) `accept` may be reused at once by another
  /// test's server, and the old thread would then answer that server's connections.
  private let served: Bool
  private let log = Log()

  /// The requests read, shared with the serving thread (which must not keep the server alive).
  private final class Log: @unchecked Sendable {
    let lock = NSLock()
    var requests: [String] = []
  }

  /// A server on `host` (`127.0.0.1` or `::1`); nil when that address cannot be bound here.
  init?(host: String = "127.0.0.1", _ behaviour: Behaviour) {
    let ipv6 = host.contains(":")
    let fd = socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    guard fd >= 0 else { return nil }
    var bound: Int32
    if ipv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      inet_pton(AF_INET6, host, &address.sin6_addr)
      bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
          bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size))
        }
      }
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      inet_pton(AF_INET, host, &address.sin_addr)
      bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
      }
    }
    guard bound == 0, listen(fd, 16) == 0 else {
      close(fd)
      return nil
    }
    var storage = sockaddr_storage()
    var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
    }
    let networkPort = withUnsafeBytes(of: &storage) { raw in raw.load(fromByteOffset: 2, as: UInt16.self) }
    self.host = host
    self.port = UInt16(bigEndian: networkPort)
    self.fd = fd
    if case .silent = behaviour {
      served = false
      return
    }
    served = true
    Thread.detachNewThread { [log] in Self.serve(fd, behaviour, log) }
  }

  /// Shutting a listening socket down wakes its `accept` with an error; the thread then closes it.
  deinit {
    shutdown(fd, Int32(SHUT_RDWR))
    if !served { close(fd) }
  }

  /// `http://host:port` (an IPv6 host in brackets).
  var origin: String { host.contains(":") ? "http://[\(host)]:\(port)" : "http://\(host):\(port)" }

  /// The requests read so far, as text.
  var requests: [String] { log.lock.withLock { log.requests } }

  private static func serve(_ fd: Int32, _ behaviour: Behaviour, _ log: Log) {
    while true {
      let client = accept(fd, nil, nil)
      if client < 0 {
        if errno == EINTR || errno == ECONNABORTED { continue }
        close(fd)
        return
      }
      switch behaviour {
      case .reply(let text):
        let request = readRequest(client)
        log.lock.withLock { log.requests.append(request) }
        writeAll(client, text)
      case .greet(let text):
        writeAll(client, text)
      case .silent:
        break
      }
      close(client)
    }
  }

  private static func readRequest(_ client: Int32) -> String {
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let text = String(decoding: bytes, as: UTF8.self)
      if let end = text.range(of: "\r\n\r\n") {
        let head = text[..<end.lowerBound].lowercased()
        let length =
          head.components(separatedBy: "\r\n").first { $0.hasPrefix("content-length:") }
          .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        if text.utf8.count - text.utf8.distance(from: text.startIndex, to: end.upperBound) >= length { return text }
      }
      let count = read(client, &chunk, chunk.count)
      if count <= 0 { return text }
      bytes += chunk[0..<count]
    }
  }

  private static func writeAll(_ client: Int32, _ text: String) {
    let bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let count = bytes[offset...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
      if count <= 0 { return }
      offset += count
    }
  }
}
