import Dispatch
import InboxApp
import InboxContract
import InboxCore
import InboxMCP
import InboxServer
import InboxStore
import InboxSync
import JSON
import JSONRPC
import Posix

#if canImport(Glibc)
  import Glibc
#endif

// inbox-rpc: parse the command line, open the store, reserve stdout for frames, serve until end of input.

let environment = Environment.process
// As the system gave them: a file name that is not UTF-8 is opened as given and shown escaped.
let commandLine = FileName.arguments
if commandLine.dropFirst().first == "lint" {
  exit(LintCommand.run(Array(commandLine.dropFirst(2))))
}
if commandLine.dropFirst().first == "preview" {
  PreviewCommand.run(Array(commandLine.dropFirst(2)), environment: environment) { exit($0) }
  dispatchMain()
}
if commandLine.dropFirst().first == "check-trace" {
  exit(CheckTraceCommand.run(Array(commandLine.dropFirst(2))))
}
if commandLine.dropFirst().first == "lsp" {
  exit(LSPCommand.run(Array(commandLine.dropFirst(2))))
}
if commandLine.dropFirst().first == "backend" {
  exit(BackendCommand.run(Array(commandLine.dropFirst(2)), environment: environment))
}
if commandLine.dropFirst().first == "replay" {
  exit(ReplayCommand.run(Array(commandLine.dropFirst(2))))
}
// `inbox-rpc mcp [options]`: the same server behind the Model Context Protocol.
var arguments = Array(commandLine.dropFirst())
let mcpMode = arguments.first == "mcp"
if mcpMode { arguments.removeFirst() }
let options: Options
do {
  options = try Options.parse(arguments, environment: environment)
} catch {
  StandardStreams.writeStderr("inbox-rpc: \(error)\nRun 'inbox-rpc --help' for usage.\n")
  exit(2)
}
if options.showHelp {
  StandardStreams.writeStdout((mcpMode ? MCPHelp.text : Options.help) + "\n")
  exit(0)
}
let toolSelection = ToolSelection(readOnly: options.readOnly, names: options.tools)
if let problem = MCPHelp.problem(with: toolSelection, mcpMode: mcpMode) {
  StandardStreams.writeStderr("inbox-rpc: \(problem)\nRun 'inbox-rpc mcp --help' for usage.\n")
  exit(2)
}
if options.showVersion {
  let report = VersionReport(libcurl: environment["INBOX_RPC_LIBCURL"] ?? HTTPBackend.libcurl)
  StandardStreams.writeStdout(options.versionJSON ? report.json.jsonString + "\n" : report.text)
  exit(0)
}

let token: (APIToken, String)?
do {
  token = try options.apiToken(environment: environment)
} catch {
  StandardStreams.writeStderr("inbox-rpc: \(error)\nRun 'inbox-rpc --help' for usage.\n")
  exit(2)
}

StandardStreams.ignoreSIGPIPE()
StandardStreams.ignoreSIGXFSZ()
let protocolFD = StandardStreams.reserveStdoutForProtocol()
let logger = Logger(level: options.logLevel)
let tracer: Tracer?
do {
  tracer = try TraceSetup.tracer(options, token: token?.0, environment: environment, logger: logger)
} catch {
  StandardStreams.writeStderr("inbox-rpc: \(String(describing: error).escapingControlCharacters)\n")
  exit(2)
}

var storeOptions = InboxStore.Options(path: options.store ?? StoreFile.defaultPath(environment: environment))
storeOptions.durability = options.durability
storeOptions.fullCheck = options.fullCheck
storeOptions.warn = { logger.warn($0) }
var serverOptions = ServerOptions()
serverOptions.testMethods = options.testMethods
serverOptions.inbox.sampleFeed = options.sampleFeed
serverOptions.inbox.pinnedClock = options.testClock
serverOptions.inbox.sync.backend = options.backend
serverOptions.inbox.sync.token = token?.0
serverOptions.inbox.sync.tokenSource = token?.1
serverOptions.inbox.sync.timeout = options.backendTimeout
if let patience = options.syncLeasePatience { serverOptions.inbox.sync.leasePatience = patience }
serverOptions.inbox.messageLimit = MessageSizeLimit(bytes: options.maxMessageBytes)
serverOptions.inbox.maxReplyBytes = options.maxReplyBytes
// Without a CA file of our own, the system's store; SSL_CERT_FILE names another, as for the curl tool.
serverOptions.inbox.sync.caFile = options.backendCAFile ?? environment["SSL_CERT_FILE"]
serverOptions.inbox.sync.proxy = options.sandbox ? .direct : ProxySettings(environment: environment)
if options.sandbox {
  // Every call to the one listener named, or none: whatever a replayed config.set names.
  if case .some(.some(let listener)) = options.backend.baseURL {
    serverOptions.inbox.sync.confinedTo = .some(listener)
  } else {
    serverOptions.inbox.sync.confinedTo = .some(nil)
  }
  serverOptions.inbox.sync.caFile = nil
}
serverOptions.inbox.sync.libcurl = environment["INBOX_RPC_LIBCURL"] ?? HTTPBackend.libcurl
serverOptions.inbox.passes.cacheDirectory =
  options.passDirectory ?? PassCache.defaultDirectory(environment: environment)
if let proxy = serverOptions.inbox.sync.proxy.summary {
  if serverOptions.inbox.sync.proxy.isUsable { logger.info(proxy) } else { logger.warn(proxy) }
}
serverOptions.inbox.sync.interval = options.syncInterval
serverOptions.inbox.sync.minFetchInterval = options.minSyncInterval
serverOptions.inbox.sync.maxReplyBytes = options.maxSyncReplyBytes
let inboxOptions = serverOptions.inbox
let testMethods = serverOptions.testMethods
/// The runtime and its store, once both are open: served on the main thread when they opened before
/// `InboxStore.open` returned (the common start), else on a thread of its own.
let ready = HereOrLater<(runtime: InboxRuntime, store: InboxStore)> { ready in
  // The reader reads stdin on a thread of its own, for the life of the server, with the stack a
  // main thread has (deep frames are parsed and checked on it).
  Threads.start(stackBytes: 8 << 20) { serve(ready.runtime, store: ready.store) }
}

func openRuntime(on store: InboxStore) {
  logger.info("store: \(store.path)")
  InboxRuntime.open(options: inboxOptions, store: store) { opened in
    switch opened {
    case .success(let runtime):
      ready.complete((runtime, store))
    case .failure(let error):
      StandardStreams.writeStderr(
        "inbox-rpc: cannot start: \(String(describing: error).escapingControlCharacters)\n")
      exit(3)
    }
  }
}

func serve(_ runtime: InboxRuntime, store: InboxStore) -> Never {
  if let outcome = runtime.startupOutcome, outcome.accountChanged {
    logger.info("backend account changed: \(outcome.removed.count) messages cleared from the local inbox")
  }

  var configuration = Connection.Configuration(framing: options.framing)
  configuration.maxFrameBytes = options.maxFrameBytes
  configuration.maxBatchSize = options.maxBatchSize
  configuration.maxReplyBytes = options.maxReplyBytes
  configuration.json.maxDepth = options.maxDepth
  configuration.tracer = tracer

  configuration.outputPatience = options.outputPatience

  // A host that closed stdout is gone: every reported change is already committed, so leave quietly.
  // One that took none of the output waiting for it for the patience has stopped reading: leave,
  // saying so, with the replies it did not take.
  let writer = OutputWriter(fd: protocolFD, tracer: tracer) { outcome in
    if outcome == .stalled {
      logger.warn("the host took no output for \(options.outputPatience) s; replies dropped, exiting")
    } else {
      logger.info("stdout closed by the host; exiting")
    }
    tracer?.finish()
    logger.flush()
    _exit(outcome == .stalled ? 6 : 0)
  }
  // One face on the runtime: MCP, or JSON-RPC.
  let mcp = mcpMode ? MCPServer(runtime: runtime, tools: toolSelection) : nil
  if let mcp { mcp.configure(&configuration) }
  let registry = mcp?.registry ?? InboxServer.registry(runtime: runtime, testMethods: testMethods)
  let connection = Connection(configuration: configuration, registry: registry, writer: writer, logger: logger)
  let notify: @Sendable (String, JSONValue) -> Void = { method, params in connection.notify(method, params) }
  runtime.start(reporter: mcp?.backgroundReporter(notify) ?? InboxServer.reporter(notify: notify), logger: logger)
  let code = connection.serve(input: STDIN_FILENO)
  runtime.stop()
  do { try store.close() } catch { logger.error("closing the store: \(error)") }
  if let dropped = tracer?.finish(), dropped > 0 {
    logger.warn("trace: \(dropped) frames dropped (see docs/tracing.md)")
  }
  logger.info("every reply written; exiting with status \(code)")
  logger.flush()
  exit(code)
}

// The store opens, and the runtime on it, with no thread waiting for another process (its open,
// its write lock): when one is in the way, the main thread runs Dispatch's main queue until the
// server exits.
InboxStore.open(storeOptions) { opened in
  switch opened {
  case .success(let store): openRuntime(on: store)
  case .failure(let error):
    StandardStreams.writeStderr("inbox-rpc: \(String(describing: error).escapingControlCharacters)\n")
    switch error.kind {
    case .corrupt: exit(4)
    case .tooNew: exit(5)
    default: exit(3)
    }
  }
}
if let opened = ready.returned() { serve(opened.runtime, store: opened.store) }
dispatchMain()
