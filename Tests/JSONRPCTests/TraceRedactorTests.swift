import JSON
import JSONRPC
import Testing

/// What a trace keeps of a frame: secrets replaced, everything else as it was.
struct TraceRedactorTests {
  let params: TraceRedactor.SecretParams = ["config.set": [["backend", "token"]]]

  func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }
  func bytes(_ text: String) -> ArraySlice<UInt8> { Array(text.utf8)[...] }

  @Test func aFrameWithoutSecretsPassesUnchanged() {
    let redactor = TraceRedactor(secrets: ["tok-123"], secretParams: params)
    #expect(redactor.passesUnchanged(bytes(#"{"jsonrpc":"2.0","id":1,"method":"feed.counts"}"#)))
  }

  @Test(arguments: [
    #"{"id":"tok-123"}"#,  // the token
    #"{"method":"config.set","params":{}}"#,  // a method with secret params
    #"{"h":"AUTHORIZATION: x"}"#,  // the header, any case
    #"{"id":"\u0074ok-123"}"#,  // an escape could spell any of them
    "{\"a\":\n1}",  // not one line
  ])
  func aFrameThatMayHoldASecretIsRedactedInFull(_ text: String) {
    let redactor = TraceRedactor(secrets: ["tok-123"], secretParams: params)
    #expect(!redactor.passesUnchanged(bytes(text)))
  }

  @Test func theTokenIsReplacedWhereverItIs() throws {
    var redactor = TraceRedactor(secrets: ["tok-123"])
    let frame = try parse(#"{"a":["x tok-123 y"],"tok-123":1}"#)
    #expect(redactor.redact(frame) == (try parse(#"{"a":["x [REDACTED] y"],"[REDACTED]":1}"#)))
    #expect(redactor.redact(text: "not json tok-123") == "not json [REDACTED]")
  }

  @Test func authorizationHeadersLoseTheirValue() throws {
    var redactor = TraceRedactor(secrets: [])
    let frame = try parse(#"{"headers":{"Authorization":"Token abc"},"note":"sent authorization: Bearer xyz"}"#)
    let expected = try parse(#"{"headers":{"Authorization":"[REDACTED]"},"note":"sent authorization: [REDACTED]"}"#)
    #expect(redactor.redact(frame) == expected)
  }

  @Test func aSecretParamIsReplacedAndRememberedForEchoes() throws {
    var redactor = TraceRedactor(secrets: [], secretParams: params)
    let sent = try parse(#"{"id":1,"method":"config.set","params":{"backend":{"token":"host-s3cret","hwid":"h"}}}"#)
    let kept = try parse(#"{"id":1,"method":"config.set","params":{"backend":{"token":"[REDACTED]","hwid":"h"}}}"#)
    #expect(redactor.redact(sent) == kept)
    let echo = #"{"id":2,"error":{"data":{"id":"host-s3cret"}}}"#
    #expect(!redactor.passesUnchanged(bytes(echo)))
    #expect(redactor.redact(try parse(echo)) == (try parse(#"{"id":2,"error":{"data":{"id":"[REDACTED]"}}}"#)))
  }

  @Test func aBatchHasEachMemberRedacted() throws {
    var redactor = TraceRedactor(secrets: [], secretParams: params)
    let batch = try parse(#"[{"method":"feed.counts"},{"method":"config.set","params":{"backend":{"token":"t"}}}]"#)
    let kept = try parse(
      #"[{"method":"feed.counts"},{"method":"config.set","params":{"backend":{"token":"[REDACTED]"}}}]"#)
    #expect(redactor.redact(batch) == kept)
  }
}

/// What a trace keeps of a frame it cannot parse, and the hash it names it by.
struct FrameDigestTests {
  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
  ])
  func theHashIsSHA256(_ text: String, _ hex: String) {
    var redactor = TraceRedactor(secrets: [])
    #expect(redactor.digest(Array(text.utf8)[...])["sha256"]?.stringValue == hex)
  }

  @Test func aMillionBytesHashAsSHA256Says() {
    var redactor = TraceRedactor(secrets: [])
    let digest = redactor.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)[...])
    #expect(digest["sha256"]?.stringValue == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    #expect(digest["bytes"]?.intValue == 1_000_000)
  }

  @Test func thePrefixKeepsNamesAndTheMethodOnly() {
    var redactor = TraceRedactor(secrets: ["tok-123"], secretParams: ["config.set": [["backend", "token"]]])
    let frame =
      #"{"jsonrpc":"2.0","id":7,"method":"config.set","params":{"backend":{"token":"s3cret","token":"s3cret"},"note":"tok-123 x"}}"#
    let prefix = redactor.digest(Array(frame.utf8)[...])["prefix"]?.stringValue
    #expect(
      prefix
        == #"{"jsonrpc":"2.0","id":7,"method":"config.set","params":{"backend":{"token":"[REDACTED]","token":"[REDACTED]"},"note":"[REDACTED]"}}"#
    )
  }

  @Test func aFrameCutShortHasItsOpenStringAndWordsReplaced() {
    var redactor = TraceRedactor(secrets: [])
    let prefix = redactor.digest(Array(#"{"id":1,"method":"message.get","params":{"id":"abc"#.utf8)[...])["prefix"]
    #expect(prefix?.stringValue == #"{"id":1,"method":"message.get","params":{"id":"[REDACTED]"#)
    let words = redactor.digest(Array("Token s3cr3t-value is not JSON".utf8)[...])["prefix"]?.stringValue
    #expect(words == "[REDACTED] [REDACTED] [REDACTED] [REDACTED] [REDACTED]")
  }

  @Test func aSecretParamOfAFrameThatCannotBeParsedIsRememberedForTheReply() throws {
    var redactor = TraceRedactor(secrets: [], secretParams: ["config.set": [["backend", "token"]]])
    _ = redactor.digest(Array(#"{"method":"config.set","params":{"backend":{"token":"cut\/short-1"#.utf8)[...])
    let reply = try JSONValue.parse(#"{"error":{"data":{"reason":"near '\"cut/short-1'"}}}"#)
    #expect(redactor.redact(reply) == (try JSONValue.parse(#"{"error":{"data":{"reason":"near '\"[REDACTED]'"}}}"#)))
  }

  @Test func theStartOfALongSecretAnEchoCutShortIsReplacedToo() throws {
    var redactor = TraceRedactor(secrets: [], secretParams: ["config.set": [["backend", "token"]]])
    let secret = String(repeating: "k3y-", count: 80)
    _ = redactor.digest(Array((#"{"method":"config.set","params":{"backend":{"token":""# + secret).utf8)[...])
    let echo = #"{"error":{"data":{"reason":"near '\""# + secret.prefix(150) + #"'"}}}"#
    #expect(!redactor.passesUnchanged(Array(echo.utf8)[...]))
    let redacted = redactor.redact(try JSONValue.parse(echo))
    #expect(redacted == (try JSONValue.parse(#"{"error":{"data":{"reason":"near '\"[REDACTED]'"}}}"#)))
  }

  @Test(arguments: [#"{"id":"tok\/123"}"#, #"{"id":"a\"b"}"#, #"{"id":"x\\y"}"#])
  func anyEscapeSendsTheFrameToBeDecodedFirst(_ text: String) {
    let redactor = TraceRedactor(secrets: ["tok/123"])
    #expect(!redactor.passesUnchanged(Array(text.utf8)[...]))
  }

  @Test func aHeaderValueRunsToTheEndOfItsLineQuotesIncluded() throws {
    var redactor = TraceRedactor(secrets: [])
    let frame = try JSONValue.parse(#"{"title":"Authorization: Token a\"b-rest\nnext line"}"#)
    #expect(redactor.redact(frame) == (try JSONValue.parse(#"{"title":"Authorization: [REDACTED]\nnext line"}"#)))
  }
}
