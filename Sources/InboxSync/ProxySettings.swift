import InboxCore
import Posix

/// Which backend requests go through a proxy, from the variables curl and most tools read:
/// `https_proxy` (then `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`) names the proxy, and `no_proxy` (or
/// `NO_PROXY`) lists the hosts reached directly.
///
/// Only https requests are proxied: plain http is allowed to loopback addresses alone, which a proxy
/// could not reach for us. `no_proxy` is a comma-separated list of `*` (no proxy at all), host
/// names (matching that name and every name under it; a leading `.` changes nothing) and IP
/// addresses (matching exactly); a `:port` after an entry is ignored. A proxy variable that is set
/// but unusable makes every proxied request fail with its reason: a mistyped proxy is never
/// bypassed silently, on a network where going direct may be forbidden.
public struct ProxySettings: Sendable, Equatable {
  /// The proxy, or why the variable that names it is not usable; nil: no proxy.
  var proxy: Result<HTTPProxy, HTTPURL.Invalid>?
  /// The variable the proxy came from, for messages.
  var variable: String
  var exceptions: [String]

  /// No proxy: every request goes direct.
  public static let direct = ProxySettings(proxy: nil, variable: "", exceptions: [])

  init(proxy: Result<HTTPProxy, HTTPURL.Invalid>?, variable: String, exceptions: [String]) {
    self.proxy = proxy
    self.variable = variable
    self.exceptions = exceptions
  }

  public init(environment: Environment) {
    let names = ["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
    let named = names.lazy.compactMap { name in
      environment[name].flatMap { $0.trimmingWhitespace().isEmpty ? nil : (name, $0) }
    }.first
    variable = named?.0 ?? ""
    proxy = named.map { _, text in Result { () throws(HTTPURL.Invalid) in try HTTPProxy(text) } }
    exceptions = (environment["no_proxy"] ?? environment["NO_PROXY"] ?? "")
      .split(separator: ",").map { String($0).trimmingWhitespace() }.filter { !$0.isEmpty }
  }

  /// For the start-up log: which proxy https requests use, or why none can be used; nil without one.
  public var summary: String? {
    switch proxy {
    case nil: nil
    case .success(let proxy): "https to the backend goes through \(proxy.description) (\(variable))"
    case .failure(let invalid): "\(variable) is not usable: \(invalid.reason)"
    }
  }

  /// False when a proxy variable is set but cannot be used (every https call then fails).
  public var isUsable: Bool {
    if case .failure = proxy { return false }
    return true
  }

  /// The proxy for a request to `url`: none for http, none for a host `no_proxy` lists.
  func proxy(for url: HTTPURL) throws(HTTPTransfer.Failure) -> HTTPProxy? {
    guard url.secure, let proxy, !Self.bypasses(url.host, exceptions) else { return nil }
    switch proxy {
    case .success(let proxy): return proxy
    case .failure(let invalid): throw .transport(reason: "\(variable): \(invalid.reason)")
    }
  }

  /// Whether `host` is reached directly under the `no_proxy` entries `exceptions`.
  static func bypasses(_ host: String, _ exceptions: [String]) -> Bool {
    let host = host.lowercased()
    for exception in exceptions {
      let entry = Self.hostPart(of: exception.lowercased())
      if entry == "*" { return true }
      guard !entry.isEmpty else { continue }
      if host == entry || (!HostResolver.isNumeric(host) && host.hasSuffix("." + entry)) { return true }
    }
    return false
  }

  /// An entry without its brackets, `:port` and leading dot.
  private static func hostPart(of entry: String) -> String {
    var text = Substring(entry)
    if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
      return String(text[text.index(after: text.startIndex)..<close])
    }
    if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") { text = text[..<colon] }
    if text.hasPrefix(".") { text = text.dropFirst() }
    return String(text)
  }
}
