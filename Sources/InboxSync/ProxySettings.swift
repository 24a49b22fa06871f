import InboxCore
import Posix

/// Which proxy backend requests go through, from the variables curl reads: `https_proxy` (then
/// `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`) names the proxy, and `no_proxy` (or `NO_PROXY`) lists
/// the hosts reached directly, matched by libcurl (`*`, host names with every name under them, IP
/// addresses and CIDR ranges).
///
/// Only https requests are proxied: plain http is allowed to loopback addresses alone, which a proxy
/// could not reach for us. A proxy variable that is set but unusable makes every https request fail
/// with its reason: a mistyped proxy is never bypassed silently, on a network where going direct
/// may be forbidden.
public struct ProxySettings: Sendable, Equatable {
  /// The proxy, or why the variable that names it is not usable; nil: no proxy.
  var proxy: Result<Proxy, Proxy.Invalid>?
  /// The variable the proxy came from, for messages.
  var variable: String
  /// `no_proxy` as written, for libcurl.
  var exceptions: String

  /// No proxy: every request goes direct.
  public static let direct = ProxySettings(proxy: nil, variable: "", exceptions: "")

  init(proxy: Result<Proxy, Proxy.Invalid>?, variable: String, exceptions: String) {
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
    proxy = named.map { _, text in Result { () throws(Proxy.Invalid) in try Proxy(text) } }
    exceptions = environment["no_proxy"] ?? environment["NO_PROXY"] ?? ""
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

  /// The proxy for a request to `target`: none for http; libcurl skips it for what `no_proxy` lists.
  func proxy(for target: TransferTarget) throws(HTTPTransfer.Failure) -> Proxy? {
    guard target.secure, let proxy else { return nil }
    switch proxy {
    case .success(let proxy): return proxy
    case .failure(let invalid): throw .transport(reason: "\(variable): \(invalid.reason)")
    }
  }
}
