import Posix

#if canImport(Glibc)
  import Glibc
#endif

/// Host names to socket addresses with `getaddrinfo`, IPv4 and IPv6, in the order the system
/// prefers (RFC 6724, `/etc/gai.conf`).
///
/// A numeric host (`127.0.0.1`, `::1`) is converted on the calling thread: that never blocks. A
/// name is looked up on a thread of its own while the caller waits in short slices, so a slow
/// resolver cannot hold a transfer past its deadline or past a cancel; a lookup given up on
/// finishes on its thread and its result is dropped.
enum HostResolver {
  /// One address to connect to.
  struct Address {
    var family: Int32
    var storage: sockaddr_storage
    var length: socklen_t
  }

  static func resolve(_ host: String, port: UInt16, by deadline: TransferDeadline) throws(HTTPTransfer.Failure)
    -> [Address]
  {
    if isNumeric(host) { return try lookUp(host, port: port, numeric: true).get() }
    let lookup = Lookup()
    let started = Threads.spawn { [host] in
      let result = lookUp(host, port: port, numeric: false)
      lookup.lock.withLock {
        lookup.result = result
        lookup.lock.signal()
      }
    }
    guard started else { return try lookUp(host, port: port, numeric: false).get() }
    while true {
      try deadline.check("resolving \(host)")
      let result = lookup.lock.withLock {
        if lookup.result == nil {
          _ = lookup.lock.wait(untilMonotonic: Clock.monotonicNanoseconds + UInt64(deadline.nextSlice) * 1_000_000)
        }
        return lookup.result
      }
      if let result { return try result.get() }
    }
  }

  /// Whether `host` is an IPv4 or IPv6 address rather than a name.
  static func isNumeric(_ host: String) -> Bool {
    var v4 = in_addr()
    var v6 = in6_addr()
    return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
  }

  /// Where a lookup on its own thread leaves its result, guarded by `lock`.
  private final class Lookup: @unchecked Sendable {
    let lock = ConditionLock()
    var result: Result<[Address], HTTPTransfer.Failure>?
  }

  private static func lookUp(_ host: String, port: UInt16, numeric: Bool) -> Result<[Address], HTTPTransfer.Failure> {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    hints.ai_flags = AI_NUMERICSERV | (numeric ? AI_NUMERICHOST : 0)
    var list: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, String(port), &hints, &list)
    guard code == 0 else {
      let why = code == EAI_SYSTEM ? String(cString: strerror(errno)) : String(cString: gai_strerror(code))
      return .failure(.transport(reason: "cannot resolve \(host): \(why)"))
    }
    defer { freeaddrinfo(list) }
    var addresses: [Address] = []
    var entry = list
    while let info = entry?.pointee {
      if let address = info.ai_addr, Int(info.ai_addrlen) <= MemoryLayout<sockaddr_storage>.size {
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
          target.copyMemory(from: UnsafeRawBufferPointer(start: address, count: Int(info.ai_addrlen)))
        }
        addresses.append(Address(family: info.ai_family, storage: storage, length: info.ai_addrlen))
      }
      entry = info.ai_next
    }
    guard !addresses.isEmpty else { return .failure(.transport(reason: "cannot resolve \(host): no address")) }
    return .success(addresses)
  }
}
