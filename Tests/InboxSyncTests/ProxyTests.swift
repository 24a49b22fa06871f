import Posix
import Testing

@testable import InboxSync

/// The proxy a request goes through: the proxy URL checked, and the variable chosen as curl
/// chooses it. (libcurl itself speaks to the proxy; the end-to-end suite drives real ones.)
struct ProxyTests {

  @Test(
    arguments: [
      ("http://proxy.corp:3128", "http", "proxy.corp", 3128, "http://proxy.corp:3128"),
      ("proxy.corp:3128", "http", "proxy.corp", 3128, "http://proxy.corp:3128"),
      ("  HTTP://proxy.corp/  ", "http", "proxy.corp", 1080, "HTTP://proxy.corp/"),
      ("http://[::1]:8080", "http", "::1", 8080, "http://[::1]:8080"),
      ("http://user:secret@proxy:8080", "http", "proxy", 8080, "http://user:secret@proxy:8080"),
      ("https://proxy:443", "https", "proxy", 443, "https://proxy:443"),
      ("socks5h://proxy", "socks5h", "proxy", 1080, "socks5h://proxy"),
    ] as [(String, String, String, UInt16, String)])
  func readsAProxyURL(_ text: String, _ scheme: String, _ host: String, _ port: UInt16, _ url: String) throws {
    let proxy = try Proxy(text)
    #expect([proxy.scheme, proxy.host, proxy.url] == [scheme, host, url])
    #expect(proxy.port == port)
  }

  static let supported = "http://, https://, socks4://, socks4a://, socks5://, socks5h://"

  @Test(arguments: [
    ("ftp://proxy:21", "the proxy URL uses ftp://; the proxies supported are \(supported)"),
    ("http://:3128", "the proxy URL has no host"),
    ("http://proxy:99999", "the proxy URL has an invalid port"),
  ])
  func refusesAProxyURL(_ text: String, _ reason: String) {
    #expect(throws: Proxy.Invalid(reason: reason)) { try Proxy(text) }
  }

  /// curl's order: `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`; an empty one is unset.
  @Test(arguments: [
    (["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"], "https_proxy", "a"),
    (["https_proxy": " ", "HTTPS_PROXY": "http://b:2", "all_proxy": "c:3"], "HTTPS_PROXY", "b"),
    (["all_proxy": "socks5://c:3", "ALL_PROXY": "http://d:4"], "all_proxy", "c"),
    (["ALL_PROXY": "d:4"], "ALL_PROXY", "d"),
  ])
  func choosesTheVariable(_ variables: [String: String], _ variable: String, _ host: String) throws {
    let settings = ProxySettings(environment: Environment(variables))
    #expect(settings.variable == variable)
    #expect(try settings.proxy(for: TransferTarget("https://api.example.com/"))?.host == host)
  }

  @Test func noVariableMeansDirect() throws {
    let settings = ProxySettings(environment: Environment(["no_proxy": "example.com"]))
    #expect(settings.summary == nil)
    #expect(settings.exceptions == "example.com")
    #expect(try settings.proxy(for: TransferTarget("https://api.example.com/")) == nil)
  }

  /// Plain http (loopback only) never goes through the proxy.
  @Test func plainHTTPIsNotProxied() throws {
    let settings = ProxySettings(environment: Environment(["https_proxy": "http://proxy:3128"]))
    #expect(try settings.proxy(for: TransferTarget("http://127.0.0.1:8080/")) == nil)
    #expect(try settings.proxy(for: TransferTarget("https://127.0.0.1:8080/"))?.host == "proxy")
  }

  /// Plain http to any other host is refused before a call, whatever URL reaches the transfer.
  @Test func plainHTTPOnlyToLoopback() {
    #expect(throws: HTTPTransfer.Failure.self) { try TransferTarget("http://example.com/") }
    #expect(throws: HTTPTransfer.Failure.self) { try TransferTarget("ftp://127.0.0.1/") }
  }

  /// A proxy variable that cannot be used fails each https call with its reason, naming the
  /// variable; it is never bypassed.
  @Test func unusableProxyFailsTheCall() throws {
    let settings = ProxySettings(environment: Environment(["HTTPS_PROXY": "ftp://proxy"]))
    let reason = "the proxy URL uses ftp://; the proxies supported are \(Self.supported)"
    #expect(!settings.isUsable)
    #expect(settings.summary == "HTTPS_PROXY is not usable: \(reason)")
    #expect(throws: HTTPTransfer.Failure.transport(reason: "HTTPS_PROXY: \(reason)")) {
      try settings.proxy(for: TransferTarget("https://api.example.com/"))
    }
  }

  @Test func noProxyFromEitherSpelling() {
    #expect(ProxySettings(environment: Environment(["no_proxy": "a", "NO_PROXY": "b"])).exceptions == "a")
    #expect(ProxySettings(environment: Environment(["NO_PROXY": "b"])).exceptions == "b")
  }
}
