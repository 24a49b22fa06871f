// The reply oracle (INBOX_FUZZ_CHECK_REPLIES=1): every frame the server wrote for one input is
// read back and checked: correct framing, valid JSON, a JSON-RPC 2.0 response or server
// notification (or a non-empty array of them). A violation aborts, so libFuzzer saves the input.
//
// Parsing the replies was a fifth of the fuzzing time (they run to 2.5 times the input's bytes),
// and most repeat byte for byte (30,000 reply frames of 1,000 corpus inputs held 5,000 distinct
// ones): a body equal to one already found valid gets the same verdict without being parsed again.
// Bodies are remembered by a 64-bit hash, at most a million at a time.

import JSON
import Synchronization

#if canImport(Glibc)
  import Glibc
#endif

enum ReplyOracle {
  /// Hashes of the reply bodies found valid.
  private static let valid = Mutex<Set<Int>>([])

  static func checkAndClear(_ outputFD: Int32, dump dumpReplies: Bool) {
    let length = Int(lseek(outputFD, 0, SEEK_END))
    guard length > 0 else { return }
    var bytes = [UInt8](repeating: 0, count: length)
    let count = bytes.withUnsafeMutableBytes { pread(outputFD, $0.baseAddress, length, 0) }
    precondition(count == length, "short read of the reply file")
    _ = ftruncate(outputFD, 0)
    _ = lseek(outputFD, 0, SEEK_SET)
    if dumpReplies { _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) } }

    let header = Array("Content-Length: ".utf8)
    if bytes.starts(with: header) {
      var at = 0
      while at < bytes.count {
        guard bytes[at...].starts(with: header) else { fail("LSP reply without a Content-Length header", bytes, at) }
        guard let end = find([0x0D, 0x0A, 0x0D, 0x0A], in: bytes, from: at) else {
          fail("unterminated header", bytes, at)
        }
        let digits = bytes[(at + header.count)..<end]
        guard let bodyLength = Int(String(decoding: digits, as: UTF8.self)) else {
          fail("bad Content-Length", bytes, at)
        }
        let bodyStart = end + 4
        guard bodyStart + bodyLength <= bytes.count else { fail("Content-Length past the end", bytes, at) }
        checkReply(bytes[bodyStart..<(bodyStart + bodyLength)])
        at = bodyStart + bodyLength
      }
    } else {
      guard bytes.last == 0x0A else { fail("NDJSON output not ending in a newline", bytes, 0) }
      for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).dropLast() {
        checkReply(line)
      }
    }
  }

  private static func checkReply(_ body: ArraySlice<UInt8>) {
    var hasher = Hasher()
    body.withUnsafeBytes { hasher.combine(bytes: $0) }
    let hash = hasher.finalize()
    guard !valid.withLock({ $0.contains(hash) }) else { return }
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: body, options: JSONReadOptions(maxDepth: 4096))
    } catch {
      fail("reply is not valid JSON: \(error)", Array(body), 0)
    }
    switch value {
    case .object(let object):
      checkResponse(object, body)
    case .array(let items) where !items.isEmpty:
      for item in items {
        guard case .object(let object) = item else { fail("batch reply member is not an object", Array(body), 0) }
        checkResponse(object, body)
      }
    default:
      fail("reply is neither an object nor a non-empty array", Array(body), 0)
    }
    valid.withLock { valid in
      if valid.count >= 1 << 20 { valid.removeAll(keepingCapacity: true) }
      valid.insert(hash)
    }
  }

  private static func checkResponse(_ object: JSONObject, _ body: ArraySlice<UInt8>) {
    guard object["jsonrpc"] == .string("2.0") else { fail("reply without jsonrpc 2.0", Array(body), 0) }
    if object["method"] != nil { return }  // a server notification
    guard object["id"] != nil else { fail("response without id", Array(body), 0) }
    let hasResult = object["result"] != nil
    let error = object["error"]
    guard hasResult != (error != nil) else { fail("response needs exactly one of result and error", Array(body), 0) }
    if let error {
      guard error["code"]?.intValue != nil, error["message"]?.stringValue != nil else {
        fail("error object without an integer code and a string message", Array(body), 0)
      }
    }
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
    guard bytes.count >= needle.count else { return nil }
    var at = from
    while at + needle.count <= bytes.count {
      if bytes[at..<(at + needle.count)].elementsEqual(needle) { return at }
      at += 1
    }
    return nil
  }

  private static func fail(_ problem: String, _ bytes: [UInt8], _ at: Int) -> Never {
    let excerpt = String(decoding: bytes[at..<min(bytes.count, at + 300)], as: UTF8.self)
    fatalError("inbox-rpc fuzz oracle: \(problem): \(excerpt.debugDescription)")
  }
}
