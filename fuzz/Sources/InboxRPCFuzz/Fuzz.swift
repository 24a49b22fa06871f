// The libFuzzer entry point for inbox-rpc: every input is one stdio session fed through the real
// path, `Connection.receive` -> `FrameReader` -> jansson parse -> classification -> dispatch to the
// server's registry (test methods included) -> encode -> `OutputWriter`.
//
// Input layout: the first byte is a control byte, the rest is the byte stream the host "sent".
//
//   bits 0-1  framing: 0 or 3 = auto-detect, 1 = forced ndjson, 2 = forced lsp
//   bits 2-4  delivery: 0 = all bytes in one receive(); 1...7 = in chunks of 1, 2, 3, 7, 16, 64, 1024
//             bytes, so frames split across reads (and the BOM, and LSP headers) are exercised
//   bit 5     tight limits: max frame 256 bytes, max batch 4, max depth 8 (the error paths)
//   bits 6-7  ignored, so '@' (0x40) = auto, 'A' = ndjson, 'B' = lsp, all in one receive; '`' 'a' 'b'
//             are the same with tight limits. fuzz/make-corpus.py writes seeds this way.
//
// Each input gets a fresh connection, and a server in its first state: one in-memory store and a
// session, rebuilt (a new session, the store emptied) only after an input that reached a method
// that may change them (`FuzzServer`, `PristineStore`), so no state leaks between inputs;
// `finish()` returns once the connection's worker pools are idle (signalled, not polled), so every
// batch and background request has answered before the next input.
//
// Replies go to /dev/null. With INBOX_FUZZ_CHECK_REPLIES=1 (fuzz/run sets it unless
// FUZZ_CHECK_REPLIES=0) they go to an unlinked temporary file instead and `ReplyOracle` checks
// every reply frame: correct framing, valid JSON, a JSON-RPC 2.0 response or server notification
// (or a non-empty array of them); a violation aborts, so libFuzzer saves the input.
// INBOX_FUZZ_DUMP_REPLIES=1 also checks, and copies the replies to stderr (to read a reproducer).

import Foundation
import InboxServer
import InboxStore
import JSON
import JSONRPC

#if canImport(Glibc)
  import Glibc
#endif

private let logger = Logger.silent()

/// Whether the variable is set to "1". getenv, not ProcessInfo: the optimiser may inline a global's
/// initialiser into its use, and ProcessInfo copies the whole environment into a dictionary.
private func flag(_ name: String) -> Bool { getenv(name).map { String(cString: $0) } == "1" }

private let dumpReplies = flag("INBOX_FUZZ_DUMP_REPLIES")
private let checkReplies = dumpReplies || flag("INBOX_FUZZ_CHECK_REPLIES")

/// Where replies go: /dev/null, or an unlinked temporary file when replies are checked.
private let outputFD: Int32 = {
  if checkReplies {
    // An unlinked temporary file, in memory (tmpfs) where there is one: the replies of one input,
    // read back and truncated after it.
    let directory = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : NSTemporaryDirectory()
    var template = Array((directory + "/inbox-rpc-fuzz-replies.XXXXXX").utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { buffer in buffer.baseAddress.map { mkstemp($0) } ?? -1 }
    precondition(fd >= 0, "mkstemp failed")
    _ = unlink(String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self))
    return fd
  }
  let fd = open("/dev/null", O_WRONLY)
  precondition(fd >= 0, "cannot open /dev/null")
  return fd
}()

private let serverOptions: ServerOptions = {
  var options = ServerOptions()
  options.testMethods = true
  return options
}()

private let server: FuzzServer = {
  do {
    return try FuzzServer(options: serverOptions)
  } catch {
    fatalError("inbox-rpc fuzz: cannot open the store: \(error)")
  }
}()

/// INBOX_FUZZ_ORIGINAL=1: the first design, kept to measure against (fuzz/bench): a fresh store and
/// server per input, a 20 ms drain, `rpc.discover` and `test.sleep` as the server has them.
private let original = flag("INBOX_FUZZ_ORIGINAL")

/// The registry one input talks to, and a store to close after it when the input has its own.
private func serverForInput() throws -> (MethodRegistry, InboxStore?) {
  guard original else { return (try server.registry(), nil) }
  let store = try InboxStore.openInMemory()
  return (try InboxServer.registry(options: serverOptions, store: store), store)
}

private let chunkSizes = [0, 1, 2, 3, 7, 16, 64, 1024]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
  guard size > 0 else { return 0 }
  let control = data[0]
  let framing: Framing? =
    switch control & 0b11 {
    case 1: .ndjson
    case 2: .lsp
    default: nil
    }
  var configuration = Connection.Configuration(framing: framing)
  // Long enough for any batch to finish on its worker thread (FuzzServer caps test.sleep at 2 ms).
  configuration.drainTimeout = original ? 0.02 : 2
  if control & 0b10_0000 != 0 {
    configuration.maxFrameBytes = 256
    configuration.maxBatchSize = 4
    configuration.json.maxDepth = 8
  }

  let registry: MethodRegistry
  let ownStore: InboxStore?
  do {
    (registry, ownStore) = try serverForInput()
  } catch {
    fatalError("inbox-rpc fuzz: cannot set up the server: \(error)")
  }
  defer { try? ownStore?.close() }
  let writer = OutputWriter(fd: outputFD)
  let connection = Connection(configuration: configuration, registry: registry, writer: writer, logger: logger)

  let stream = UnsafeRawBufferPointer(start: data + 1, count: size - 1)
  let chunk = chunkSizes[Int((control >> 2) & 0b111)]
  if chunk == 0 || stream.isEmpty {
    connection.receive(stream)
  } else {
    var offset = 0
    while offset < stream.count {
      let end = min(offset + chunk, stream.count)
      connection.receive(UnsafeRawBufferPointer(rebasing: stream[offset..<end]))
      offset = end
    }
  }
  _ = connection.finish()

  if checkReplies { ReplyOracle.checkAndClear(outputFD, dump: dumpReplies) }
  return 0
}
