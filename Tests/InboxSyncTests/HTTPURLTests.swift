import Testing

@testable import InboxSync

/// Request URLs taken apart: scheme, host, port, target, and the `Host` header they make.
struct HTTPURLTests {
  @Test(
    arguments: [
      (
        "https://api.example.com/json/1.3/getInboxMessages", true, "api.example.com", 443, "/json/1.3/getInboxMessages",
        "api.example.com"
      ),
      ("http://127.0.0.1:8080/json/1.3/x", false, "127.0.0.1", 8080, "/json/1.3/x", "127.0.0.1:8080"),
      ("HTTP://localhost", false, "localhost", 80, "/", "localhost"),
      ("http://localhost:80/", false, "localhost", 80, "/", "localhost"),
      ("https://[::1]:8443/a/b", true, "::1", 8443, "/a/b", "[::1]:8443"),
      ("https://[::1]/", true, "::1", 443, "/", "[::1]"),
      ("https://host:/p?q=1#frag", true, "host", 443, "/p?q=1", "host"),
      ("https://host?q", true, "host", 443, "/?q", "host"),
    ] as [(String, Bool, String, UInt16, String, String)])
  func parses(_ text: String, _ secure: Bool, _ host: String, _ port: UInt16, _ target: String, _ header: String)
    throws
  {
    let url = try HTTPURL(text)
    #expect(url == HTTPURL(secure: secure, host: host, port: port, target: target))
    #expect(url.hostHeader == header)
  }

  /// What CONNECT asks a proxy for: the port always written, an IPv6 literal in brackets.
  @Test(arguments: [
    ("https://api.example.com/", "api.example.com:443"), ("https://[::1]/", "[::1]:443"),
    ("https://10.0.0.1:8443/x", "10.0.0.1:8443"),
  ])
  func authority(_ text: String, _ expected: String) throws {
    #expect(try HTTPURL(text).authority == expected)
  }

  @Test(arguments: [
    ("api.example.com/x", "is not an absolute URL"),
    ("ftp://host/x", "must use http or https"),
    ("https://user:secret@host/", "must not carry credentials"),
    ("https:///path", "has no host"),
    ("https://[::1/x", "unclosed IPv6 address"),
    ("https://[::1]x/", "something after its IPv6 address"),
    ("https://host:0/", "invalid port"),
    ("https://host:65536/", "invalid port"),
    ("https://host:-1/", "invalid port"),
    ("https://host/a b", "space or a control character"),
    ("https://host/a\r\nX-Injected: 1", "space or a control character"),
  ])
  func refuses(_ text: String, _ fragment: String) {
    do {
      _ = try HTTPURL(text)
      Issue.record("accepted \(text)")
    } catch {
      #expect(error.reason.contains(fragment), "\(error.reason)")
      #expect(!error.reason.contains("secret"))
    }
  }

  /// A `Location` comes back absolute, as the error data shows it.
  @Test(arguments: [
    ("https://other.example.com/x", "https://other.example.com/x"),
    ("//other.example.com/x", "http://other.example.com/x"),
    ("/elsewhere/json/1.3/", "http://127.0.0.1:8080/elsewhere/json/1.3/"),
    ("sibling", "http://127.0.0.1:8080/json/1.3/sibling"),
  ])
  func resolvesLocation(_ reference: String, _ absolute: String) throws {
    let url = try HTTPURL("http://127.0.0.1:8080/json/1.3/getInboxMessages?x=/y")
    #expect(url.resolving(reference) == absolute)
  }
}
