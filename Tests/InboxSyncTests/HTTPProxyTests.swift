import Posix
import Testing

@testable import InboxSync

/// The proxy a request goes through: the proxy URL read, the variables chosen, `no_proxy` matched,
/// and the CONNECT exchange against a loopback proxy.
struct HTTPProxyTests {
  @Test(arguments: [
    ("http://proxy.corp:3128", HTTPProxy(host: "proxy.corp", port: 3128)),
    ("proxy.corp:3128", HTTPProxy(host: "proxy.corp", port: 3128)),
    ("  HTTP://proxy.corp/  ", HTTPProxy(host: "proxy.corp", port: 1080)),
    ("http://[::1]:8080", HTTPProxy(host: "::1", port: 8080)),
    ("http://user:secret@proxy:8080", HTTPProxy(host: "proxy", port: 8080, authorization: "Basic dXNlcjpzZWNyZXQ=")),
    ("http://us%65r:p%40ss@proxy", HTTPProxy(host: "proxy", port: 1080, authorization: "Basic dXNlcjpwQHNz")),
  ])
  func readsAProxyURL(_ text: String, _ expected: HTTPProxy) throws {
    #expect(try HTTPProxy(text) == expected)
  }

  @Test(arguments: [
    ("https://proxy:443", "the proxy URL uses https://; only http:// proxies are supported"),
    ("socks5://proxy:1080", "the proxy URL uses socks5://; only http:// proxies are supported"),
    ("http://:3128", "the proxy URL has no host"),
    ("http://proxy:99999", "the proxy URL has an invalid port"),
    ("http://user:pa%zzss@proxy", "the proxy URL's credentials are not valid percent-encoding"),
  ])
  func refusesAProxyURL(_ text: String, _ reason: String) {
    #expect(throws: HTTPURL.Invalid(reason: reason)) { try HTTPProxy(text) }
  }

  /// curl's order: `https_proxy`, `HTTPS_PROXY`, `all_proxy`, `ALL_PROXY`; an empty one is unset.
  @Test(arguments: [
    (["https_proxy": "http://a:1", "HTTPS_PROXY": "http://b:2"], "https_proxy", HTTPProxy(host: "a", port: 1)),
    (
      ["https_proxy": " ", "HTTPS_PROXY": "http://b:2", "all_proxy": "c:3"], "HTTPS_PROXY",
      HTTPProxy(host: "b", port: 2)
    ),
    (["all_proxy": "http://c:3", "ALL_PROXY": "http://d:4"], "all_proxy", HTTPProxy(host: "c", port: 3)),
    (["ALL_PROXY": "d:4"], "ALL_PROXY", HTTPProxy(host: "d", port: 4)),
  ])
  func choosesTheVariable(_ variables: [String: String], _ variable: String, _ expected: HTTPProxy) throws {
    let settings = ProxySettings(environment: Environment(variables))
    #expect(settings.variable == variable)
    #expect(try settings.proxy(for: HTTPURL("https://api.example.com/")) == expected)
  }

  @Test func noVariableMeansDirect() throws {
    let settings = ProxySettings(environment: Environment(["no_proxy": "example.com"]))
    #expect(settings.summary == nil)
    #expect(try settings.proxy(for: HTTPURL("https://api.example.com/")) == nil)
  }

  /// Plain http (loopback only) never goes through the proxy.
  @Test func plainHTTPIsNotProxied() throws {
    let settings = ProxySettings(environment: Environment(["https_proxy": "http://proxy:3128"]))
    #expect(try settings.proxy(for: HTTPURL("http://127.0.0.1:8080/")) == nil)
    #expect(try settings.proxy(for: HTTPURL("https://127.0.0.1:8080/")) == HTTPProxy(host: "proxy", port: 3128))
  }

  /// A proxy variable that cannot be used fails each https call with its reason, naming the
  /// variable; it is never bypassed.
  @Test func unusableProxyFailsTheCall() throws {
    let settings = ProxySettings(environment: Environment(["HTTPS_PROXY": "socks5://proxy"]))
    #expect(!settings.isUsable)
    #expect(
      settings.summary == "HTTPS_PROXY is not usable: the proxy URL uses socks5://; only http:// proxies are supported")
    #expect(
      throws: HTTPTransfer.Failure.transport(
        reason: "HTTPS_PROXY: the proxy URL uses socks5://; only http:// proxies are supported")
    ) {
      try settings.proxy(for: HTTPURL("https://api.example.com/"))
    }
  }

  @Test(arguments: [
    ("api.example.com", "*", true),
    ("api.example.com", "example.com", true),
    ("api.example.com", ".example.com", true),
    ("example.com", ".example.com", true),
    ("API.Example.COM", "example.com", true),
    ("api.example.com", "ample.com", false),
    ("api.example.com", "other.org, example.com", true),
    ("api.example.com", "example.com:443", true),
    ("api.example.com", "api.example.com.evil", false),
    ("10.1.2.3", "10.1.2.3", true),
    ("10.1.2.3", "2.3", false),
    ("::1", "[::1]", true),
    ("::1", "::1", true),
    ("api.example.com", "", false),
  ])
  func noProxy(_ host: String, _ list: String, _ bypassed: Bool) {
    let entries = list.split(separator: ",").map { String($0).trimmingWhitespace() }
    #expect(ProxySettings.bypasses(host, entries) == bypassed)
  }

  @Test func noProxyFromEitherSpelling() throws {
    let lower = ProxySettings(environment: Environment(["https_proxy": "p:1", "no_proxy": " example.com ,x.org"]))
    #expect(lower.exceptions == ["example.com", "x.org"])
    let upper = ProxySettings(environment: Environment(["https_proxy": "p:1", "NO_PROXY": "example.com"]))
    #expect(try upper.proxy(for: HTTPURL("https://api.example.com/")) == nil)
  }

  // MARK: - CONNECT against a loopback proxy

  static func request(through proxy: LoopbackServer, credentials: String = "") -> HTTPTransfer.Request {
    var request = HTTPTransferTests.request("https://backend.example:8443/json/1.3/x", timeout: 5)
    request.proxy = ProxySettings(
      environment: Environment(["https_proxy": "http://\(credentials)127.0.0.1:\(proxy.port)"]))
    return request
  }

  /// The proxy is asked for a tunnel to the backend's name and port (it resolves the name, not us);
  /// its refusal comes back with its status.
  @Test func refusedTunnel() throws {
    let proxy = try #require(
      LoopbackServer(.reply("HTTP/1.1 407 Proxy Authentication Required\r\nContent-Length: 3\r\n\r\nno!")))
    let failure = HTTPTransferTests.failure(Self.request(through: proxy, credentials: "me:pw@"))
    #expect(
      failure
        == .transport(
          reason: "the proxy 127.0.0.1 port \(proxy.port) refused the tunnel to backend.example port 8443: HTTP 407"))
    #expect(
      proxy.requests == [
        "CONNECT backend.example:8443 HTTP/1.1\r\nHost: backend.example:8443\r\nProxy-Authorization: Basic bWU6cHc=\r\n\r\n"
      ])
  }

  /// Once the tunnel is open, TLS starts with the backend through it: the error names the backend.
  @Test func tunnelOpensThenTLSStarts() throws {
    let proxy = try #require(LoopbackServer(.reply("HTTP/1.1 200 Connection established\r\n\r\n")))
    guard case .transport(let reason) = HTTPTransferTests.failure(Self.request(through: proxy)) else {
      Issue.record("not a transport failure")
      return
    }
    #expect(reason.hasPrefix("TLS handshake with backend.example port 8443 failed: "), "\(reason)")
    #expect(proxy.requests == ["CONNECT backend.example:8443 HTTP/1.1\r\nHost: backend.example:8443\r\n\r\n"])
  }

  @Test func proxyThatClosesWithoutAnswer() throws {
    let proxy = try #require(LoopbackServer(.reply("")))
    let failure = HTTPTransferTests.failure(Self.request(through: proxy))
    #expect(
      failure
        == .transport(
          reason:
            "the proxy 127.0.0.1 port \(proxy.port) did not answer CONNECT: the connection closed before any reply"))
  }

  @Test func proxyThatIsNotHTTP() throws {
    let proxy = try #require(LoopbackServer(.reply("SSH-2.0-OpenSSH\r\n")))
    guard case .transport(let reason) = HTTPTransferTests.failure(Self.request(through: proxy)) else {
      Issue.record("not a transport failure")
      return
    }
    #expect(reason.hasPrefix("the proxy 127.0.0.1 port \(proxy.port) did not answer CONNECT: the reply is not HTTP"))
  }
}
