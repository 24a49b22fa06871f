// bench/echo.swift: bench/echo.c in Swift, built as the release server is (-O, whole module, the
// standard library linked in statically, the C libraries shared): the floor for the server's start-up,
// which measures what a Swift program on jansson pays before it answers (the runtime and the
// standard library's start-up) apart from what the server adds.
//
// Build: swiftc -O -wmo -static-stdlib -I Sources/CJansson bench/echo.swift -o echo-swift
import CJansson

#if canImport(Glibc)
  import Glibc
#endif

func writeAll(_ bytes: UnsafeRawBufferPointer) -> Bool {
  var offset = 0
  while offset < bytes.count {
    let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
    if written < 0 {
      if errno == EINTR || errno == EAGAIN { continue }
      return false
    }
    offset += written
  }
  return true
}

/// Answers one line, as echo.c does; false when stdout is gone.
func answer(_ line: UnsafeRawBufferPointer) -> Bool {
  var length = line.count
  if length > 0 && line[length - 1] == UInt8(ascii: "\r") { length -= 1 }
  if length == 0 { return true }
  var error = json_error_t()
  let flags = Int(JSON_DECODE_ANY | JSON_REJECT_DUPLICATES | JSON_ALLOW_NUL)
  let request = json_loadb(line.baseAddress!.assumingMemoryBound(to: CChar.self), length, flags, &error)
  let reply = json_object()
  json_object_set_new(reply, "jsonrpc", json_string("2.0"))
  let id = request.flatMap { $0.pointee.type == JSON_OBJECT ? json_object_get($0, "id") : nil }
  json_object_set(reply, "id", id ?? json_null())
  if request != nil {
    json_object_set_new(reply, "result", json_string("pong"))
  } else {
    let failure = json_object()
    json_object_set_new(failure, "code", json_integer(-32700))
    json_object_set_new(failure, "message", json_string("Parse error"))
    json_object_set_new(reply, "error", failure)
  }
  let dumpFlags = Int(JSON_COMPACT | JSON_ENCODE_ANY)
  let size = json_dumpb(reply, nil, 0, dumpFlags)
  var frame = [UInt8](repeating: 0, count: size + 1)
  let ok = frame.withUnsafeMutableBytes { buffer in
    _ = json_dumpb(reply, buffer.baseAddress!.assumingMemoryBound(to: CChar.self), size, dumpFlags)
    buffer[size] = UInt8(ascii: "\n")
    return writeAll(UnsafeRawBufferPointer(buffer))
  }
  json_decref(reply)
  if let request { json_decref(request) }
  return ok
}

var buffer = [UInt8](repeating: 0, count: 64 * 1024)
var start = 0
var end = 0
loop: while true {
  if end == buffer.count {
    if start > 0 {
      buffer.replaceSubrange(0..<(end - start), with: buffer[start..<end])
      end -= start
      start = 0
    } else {
      buffer += [UInt8](repeating: 0, count: buffer.count)
    }
  }
  let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress! + end, $0.count - end) }
  if count < 0 {
    if errno == EINTR { continue }
    exit(1)
  }
  if count == 0 { break }
  var scan = end
  end += count
  while let newline = buffer[scan..<end].firstIndex(of: UInt8(ascii: "\n")) {
    let ok = buffer.withUnsafeBytes { answer(UnsafeRawBufferPointer(rebasing: $0[start..<newline])) }
    if !ok { exit(0) }
    start = newline + 1
    scan = start
  }
  if start == end {
    start = 0
    end = 0
  }
}
if end > start { _ = buffer.withUnsafeBytes { answer(UnsafeRawBufferPointer(rebasing: $0[start..<end])) } }
