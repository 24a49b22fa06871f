import JSON

#if canImport(Glibc)
  import Glibc
#endif

/// Takes the secrets out of a frame before it reaches the trace, replacing each with `marker`:
/// the API token (wherever it appears, even inside a longer string), `Authorization` headers
/// (a member of that name, or a string that starts like the header), and the params the schemas
/// mark secret. A secret param's value is also remembered, so a reply that echoes what the host
/// sent loses it too. Used on the trace's writer only: frames come to it in order.
public struct TraceRedactor: Sendable {
  public static let marker = "[REDACTED]"

  /// Members inside a method's params, by method: `[["backend", "token"]]` for `backend.token`.
  public typealias SecretParams = [String: [[String]]]

  private var secrets: [String]
  private let secretParams: SecretParams
  /// What a frame must not contain, as bytes, to be kept as it is: each secret, each method with
  /// secret params (quoted), and a backslash: an escape (`\/`, `\"`, `\u0074`) could spell any of
  /// them, so a frame with one is decided on its decoded values.
  private var needles: [[UInt8]]

  public init(secrets: [String], secretParams: SecretParams = [:]) {
    self.secrets = secrets.filter { !$0.isEmpty }
    self.secretParams = secretParams
    needles =
      self.secrets.map(Self.needle) + secretParams.keys.map { Array("\"\($0)\"".utf8) } + [
        Array("\\".utf8)
      ]
  }

  /// Secrets shorter than this are replaced where they are a whole string only: inside longer
  /// strings they would take every word that happens to hold them.
  static let shortestSubstring = 4

  /// A secret's first `shortestPrefix` bytes stand for all of it: a parse error quotes at most
  /// about 160 bytes of what it could not read, so an echo may hold only the start of a long secret.
  static let shortestPrefix = 8

  private static func needle(_ secret: String) -> [UInt8] {
    secret.utf8.count < shortestSubstring ? Array("\"\(secret)\"".utf8) : Array(secret.utf8.prefix(shortestPrefix))
  }

  /// True when a JSON text on one line needs nothing replaced: it names no secret, no method with
  /// secret params and no `Authorization` (in any case), and escapes nothing.
  public func passesUnchanged(_ bytes: ArraySlice<UInt8>) -> Bool {
    bytes.withContiguousStorageIfAvailable { buffer in
      guard let base = buffer.baseAddress else { return true }
      if memchrIndex(base, count: buffer.count, byte: 0x0A) != nil { return false }
      if memchrIndex(base, count: buffer.count, byte: 0x0D) != nil { return false }
      for needle in needles where Self.contains(base, buffer.count, needle) { return false }
      return !Self.mentionsAuthorization(buffer)
    } ?? false
  }

  /// Whether `needle` occurs in the `count` bytes at `base`: memchr finds each candidate first byte.
  private static func contains(_ base: UnsafePointer<UInt8>, _ count: Int, _ needle: [UInt8]) -> Bool {
    guard let first = needle.first else { return false }
    var offset = 0
    while count - offset >= needle.count, let hit = memchrIndex(base + offset, count: count - offset, byte: first) {
      let start = offset + hit
      guard count - start >= needle.count else { return false }
      if memcmp(base + start, needle, needle.count) == 0 { return true }
      offset = start + 1
    }
    return false
  }

  private static let authorization = Array("authorization".utf8)

  private static func mentionsAuthorization(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
    guard buffer.count >= authorization.count else { return false }
    for start in 0...(buffer.count - authorization.count) where buffer[start] | 0x20 == 0x61 {
      var index = 1
      while index < authorization.count, buffer[start + index] | 0x20 == authorization[index] { index += 1 }
      if index == authorization.count { return true }
    }
    return false
  }

  /// A frame the host sent or the server wrote, parsed: its secrets replaced.
  public mutating func redact(_ frame: JSONValue) -> JSONValue {
    let marked = removeSecretParams(frame)
    return scrub(marked)
  }

  /// What the trace keeps of a frame that cannot be parsed: a digest (`FrameDigest`), never the bytes.
  /// The values of members named as a secret param is (`token`) are remembered: the reply may quote them.
  public mutating func digest(_ bytes: ArraySlice<UInt8>) -> JSONValue {
    for secret in FrameDigest.values(named: secretNames, in: bytes) { remember(secret) }
    return FrameDigest.digest(bytes, secrets: secrets)
  }

  /// The last member name of every secret param (`token` for `backend.token`).
  private var secretNames: Set<String> { Set(secretParams.values.flatMap { $0.compactMap(\.last) }) }

  private mutating func remember(_ secret: String) {
    guard !secret.isEmpty, secret != Self.marker, !secrets.contains(secret) else { return }
    secrets.append(secret)
    needles.append(Self.needle(secret))
  }

  /// A string of a frame: known secrets and header values replaced.
  public func redact(text: String) -> String {
    var result = text
    if secrets.contains(text) { return Self.marker }
    for secret in secrets where secret.utf8.count >= Self.shortestSubstring {
      result = result.replacing(secret, with: Self.marker)
    }
    for secret in secrets where secret.utf8.count > Self.shortestPrefix {
      result = Self.replacingStarts(of: secret, in: result)
    }
    return Self.scrubHeader(result)
  }

  /// `text` with every run that begins as `secret` begins (its first `shortestPrefix` bytes) and
  /// goes on agreeing with it replaced: the start of a secret an echo cut short.
  static func replacingStarts(of secret: String, in text: String) -> String {
    let secret = Array(secret.utf8)
    let head = secret.prefix(shortestPrefix)
    var bytes = Array(text.utf8)
    var at = 0
    let marker = Array(Self.marker.utf8)
    while at + head.count <= bytes.count {
      guard bytes[at..<at + head.count].elementsEqual(head) else {
        at += 1
        continue
      }
      var end = at + head.count
      while end < bytes.count, end - at < secret.count, bytes[end] == secret[end - at] { end += 1 }
      bytes.replaceSubrange(at..<end, with: marker)
      at += marker.count
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  private mutating func removeSecretParams(_ frame: JSONValue) -> JSONValue {
    switch frame {
    case .array(let items): return .array(items.map { removeSecretParams($0) })
    case .object(var message):
      guard let method = message["method"]?.stringValue, let paths = secretParams[method],
        let params = message["params"]
      else { return frame }
      var redacted = params
      for path in paths { redacted = removing(path[...], from: redacted) }
      message["params"] = redacted
      return .object(message)
    default: return frame
    }
  }

  private mutating func removing(_ path: ArraySlice<String>, from value: JSONValue) -> JSONValue {
    guard let name = path.first, case .object(var object) = value, let member = object[name] else { return value }
    if path.count == 1 {
      if case .string(let secret) = member { remember(secret) }
      if !member.isNull { object[name] = .string(Self.marker) }
    } else {
      object[name] = removing(path.dropFirst(), from: member)
    }
    return .object(object)
  }

  private func scrub(_ value: JSONValue) -> JSONValue {
    switch value {
    case .string(let text): return .string(redact(text: text))
    case .array(let items): return .array(items.map(scrub))
    case .object(let object):
      var result = JSONObject()
      for member in object {
        let key = redact(text: member.key)
        result[key] = key.lowercased() == "authorization" ? .string(Self.marker) : scrub(member.value)
      }
      return .object(result)
    default: return value
    }
  }

  /// `Authorization: Token abc` anywhere in a text (a header block quoted in a message) keeps its name only.
  private static func scrubHeader(_ text: String) -> String {
    guard text.mentionsAuthorization else { return text }
    // To the end of the line: a quote in a decoded value is part of it, not its end.
    return text.replacing(/(?i)(authorization\s*:\s*)[^\r\n]*/) { $0.output.1 + marker }
  }
}

extension String {
  /// A cheap test before the regular expression runs: most strings never name the header.
  fileprivate var mentionsAuthorization: Bool {
    lowercased().contains("authorization")
  }
}
