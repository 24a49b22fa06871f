import JSON
import Posix

/// What a trace keeps of a frame it cannot parse (not JSON, a duplicate key, cut short): never the
/// bytes, whose secrets could not be found without parsing them, but `{"bytes", "sha256", "prefix"}`
/// (`sha256` only where libcrypto can be loaded):
/// the length, the hash of the whole frame, and its first `prefixBytes` with every string replaced
/// by the marker except a member's name and the `method` and `jsonrpc` values, and every other word
/// that is not a number or a literal replaced too. What is kept is printable ASCII, and holds no
/// known secret.
enum FrameDigest {
  static let prefixBytes = 256

  static func digest(_ bytes: ArraySlice<UInt8>, secrets: [String]) -> JSONValue {
    // Without libcrypto (a machine without libssl3, where no sync runs either) the hash is left out.
    var digest = JSONObject()
    digest["bytes"] = .int(Int64(bytes.count))
    digest["sha256"] = SHA256.hex(bytes).map(JSONValue.string)
    digest["prefix"] = .string(prefix(bytes.prefix(prefixBytes), secrets: secrets))
    return .object(digest)
  }

  private static let marker = TraceRedactor.marker
  private static let structural = Set("{}[]:,".utf8)
  private static let space = Set(" \t\r\n".utf8)

  /// The start of a frame with everything that may be a secret replaced (see the type).
  static func prefix(_ bytes: ArraySlice<UInt8>, secrets: [String]) -> String {
    var text = ""
    var at = bytes.startIndex
    /// The name of the member whose value comes next, when the last string was one.
    var member: String?
    while at < bytes.endIndex {
      let byte = bytes[at]
      if structural.contains(byte) || space.contains(byte) {
        text.unicodeScalars.append(Unicode.Scalar(byte))
        if byte == UInt8(ascii: ",") || byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") { member = nil }
        at += 1
      } else if byte == UInt8(ascii: "\"") {
        let (content, end, closed) = string(bytes, from: at)
        let isName = closed && nextSignificant(bytes, from: end) == UInt8(ascii: ":")
        let shown = isName || member == "method" || member == "jsonrpc"
        let kept = closed && shown && isPlainWord(content) && !holdsSecret(content, secrets)
        text += "\"" + (kept ? content : marker) + (closed ? "\"" : "")
        member = isName ? content : nil
        at = end
      } else {
        var end = at
        while end < bytes.endIndex, !structural.contains(bytes[end]), !space.contains(bytes[end]),
          bytes[end] != UInt8(ascii: "\"")
        {
          end += 1
        }
        let word = String(decoding: bytes[at..<end], as: UTF8.self)
        text += isNumberOrLiteral(word) && !holdsSecret(word, secrets) ? word : marker
        member = nil
        at = end
      }
    }
    return text
  }

  /// The values of the members named `names` anywhere in a frame that cannot be parsed (a secret
  /// param's value in a frame with a duplicate key, or cut short), decoded where they can be: the
  /// trace remembers them, since the server's reply to the frame may quote them.
  static func values(named names: Set<String>, in bytes: ArraySlice<UInt8>) -> [String] {
    var found: [String] = []
    var at = bytes.startIndex
    var member: String?
    while at < bytes.endIndex {
      guard bytes[at] == UInt8(ascii: "\"") else {
        if !space.contains(bytes[at]) && bytes[at] != UInt8(ascii: ":") { member = nil }
        at += 1
        continue
      }
      let (content, end, _) = string(bytes, from: at)
      if let name = member, names.contains(name) {
        // Decoded (one cut short as if it ended here) and as written: a parse error quotes it raw.
        let decoded = (try? JSONValue.parse("\"" + content + "\""))?.stringValue
        found.append(decoded ?? content)
        if let decoded, decoded != content { found.append(content) }
        member = nil
      } else {
        member = nextSignificant(bytes, from: end) == UInt8(ascii: ":") ? content : nil
      }
      at = end
    }
    return found
  }

  /// The raw content of the string whose quote is at `start`, the index past its closing quote,
  /// and whether it closes before the bytes end.
  private static func string(_ bytes: ArraySlice<UInt8>, from start: Int) -> (String, Int, Bool) {
    var at = start + 1
    while at < bytes.endIndex, bytes[at] != UInt8(ascii: "\"") {
      at += bytes[at] == UInt8(ascii: "\\") ? 2 : 1
    }
    let end = min(at, bytes.endIndex)
    let content = String(decoding: bytes[(start + 1)..<max(start + 1, end)], as: UTF8.self)
    return (content, min(at + 1, bytes.endIndex), at < bytes.endIndex)
  }

  private static func nextSignificant(_ bytes: ArraySlice<UInt8>, from start: Int) -> UInt8? {
    bytes[start...].first { !space.contains($0) }
  }

  /// A name or a method as protocols spell them: ASCII letters, digits and `_$./-`, no escape.
  private static func isPlainWord(_ text: String) -> Bool {
    text.utf8.count <= 64
      && text.utf8.allSatisfy { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
          || "_$./-".utf8.contains(byte)
      }
  }

  private static func isNumberOrLiteral(_ word: String) -> Bool {
    if word == "true" || word == "false" || word == "null" { return true }
    return word.utf8.count <= 24
      && word.utf8.first.map { $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) } == true
      && word.utf8.allSatisfy { (0x30...0x39).contains($0) || "-+.eE".utf8.contains($0) }
  }

  private static func holdsSecret(_ text: String, _ secrets: [String]) -> Bool {
    secrets.contains { secret in
      secret.utf8.count < TraceRedactor.shortestSubstring ? text == secret : text.contains(secret)
    }
  }
}
