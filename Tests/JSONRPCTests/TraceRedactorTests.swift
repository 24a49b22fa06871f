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
