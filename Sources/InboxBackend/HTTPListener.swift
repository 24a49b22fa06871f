import CMicroHTTPD

/// A loopback HTTP or https listener on libmicrohttpd (loaded with dlopen, `Sources/CMicroHTTPD`):
/// a thread per connection, each request handed to `handle` whole and answered with its reply.
public final class HTTPListener: @unchecked Sendable {
  public struct Limits: Sendable {
    public var maxBodyBytes = 64 * 1024
    public var maxHeaderBytes = 16 * 1024
    public var maxConnections = 64
    public var idleTimeoutSeconds = 30
    public init() {}
  }

  /// The certificate and key, PEM text, for https.
  public struct Identity: Sendable {
    public var certificate: String
    public var key: String
    public init(certificate: String, key: String) {
      self.certificate = certificate
      self.key = key
    }
  }

  public struct Failure: Error, CustomStringConvertible {
    public var description: String
  }

  public static let library = "libmicrohttpd.so.12"

  private let server: OpaquePointer
  private let handler: Unmanaged<Handler>
  public let port: Int

  private final class Handler {
    let handle: @Sendable (HTTPRequest) -> HTTPReply
    init(_ handle: @escaping @Sendable (HTTPRequest) -> HTTPReply) { self.handle = handle }
  }

  /// libmicrohttpd's version, once it loads (`library` names another file to load).
  public static func load(_ library: String = library) throws(Failure) -> String {
    if let why = cmhd_load(library) {
      throw Failure(description: "libmicrohttpd cannot be loaded: \(String(cString: why))")
    }
    return cmhd_version().map { String(cString: $0) } ?? "?"
  }

  public init(
    port: Int = 0, identity: Identity? = nil, limits: Limits = Limits(), library: String = library,
    handle: @escaping @Sendable (HTTPRequest) -> HTTPReply
  ) throws(Failure) {
    _ = try Self.load(library)
    let handler = Unmanaged.passRetained(Handler(handle))
    var why = [CChar](repeating: 0, count: 512)
    let started: OpaquePointer? =
      identity?.certificate.withCString { certificate in
        identity?.key.withCString { key in
          Self.start(port, certificate, key, limits, handler, &why)
        }
      } ?? Self.start(port, nil, nil, limits, handler, &why)
    guard let started else {
      handler.release()
      throw Failure(description: String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    server = started
    self.handler = handler
    self.port = Int(cmhd_port(started))
  }

  private static func start(
    _ port: Int, _ certificate: UnsafePointer<CChar>?, _ key: UnsafePointer<CChar>?, _ limits: Limits,
    _ handler: Unmanaged<Handler>, _ why: inout [CChar]
  ) -> OpaquePointer? {
    var options = cmhd_options(
      port: UInt16(clamping: port), cert_pem: certificate, key_pem: key, max_body_bytes: limits.maxBodyBytes,
      max_header_bytes: limits.maxHeaderBytes, max_connections: UInt32(limits.maxConnections),
      idle_timeout: UInt32(limits.idleTimeoutSeconds))
    let size = why.count
    return why.withUnsafeMutableBufferPointer { buffer in
      cmhd_start(&options, HTTPListener.trampoline, handler.toOpaque(), buffer.baseAddress, size)
    }
  }

  /// Called by libmicrohttpd's threads, one request at a time per connection.
  private static let trampoline: cmhd_handler = { context, request, reply in
    guard let context, let request, let reply else { return }
    let handler = Unmanaged<Handler>.fromOpaque(context).takeUnretainedValue()
    let answer = handler.handle(HTTPRequest(request.pointee))
    if answer.reset {
      cmhd_reply_set_reset(reply)
      return
    }
    cmhd_reply_set_status(reply, Int32(answer.status))
    answer.body.withUnsafeBytes { cmhd_reply_set_body(reply, $0.baseAddress, $0.count, answer.contentType) }
    cmhd_reply_set_delay(reply, Int32(clamping: answer.delayMilliseconds))
    if let drip = answer.drip { cmhd_reply_set_drip(reply, drip.piece, Int32(clamping: drip.intervalMilliseconds)) }
  }

  /// Stops listening; requests in progress are cut off.
  public func stop() {
    cmhd_stop(server)
    handler.release()
  }
}

extension HTTPRequest {
  fileprivate init(_ request: cmhd_request) {
    let text = request.headers.map { String(cString: $0) } ?? ""
    let headers = text.split(separator: "\n").compactMap { line -> (name: String, value: String)? in
      guard let colon = line.firstIndex(of: ":") else { return nil }
      let value = line[line.index(after: colon)...].drop { $0 == " " }
      return (String(line[..<colon]).lowercased(), String(value))
    }
    self.init(
      method: String(cString: request.method), path: String(cString: request.path), headers: headers,
      authorization: request.authorization.map { String(cString: $0) },
      body: request.body_length > 0 ? Array(UnsafeBufferPointer(start: request.body, count: request.body_length)) : [],
      tooLarge: request.too_large != 0)
  }
}
