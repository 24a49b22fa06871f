import Foundation
import InboxServer
import JSONRPC

// inbox-rpc: parse the command line, reserve stdout for frames, serve until end of input.

let options: Options
do {
  options = try Options.parse(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
  StandardStreams.writeStderr("inbox-rpc: \(error)\nRun 'inbox-rpc --help' for usage.\n")
  exit(2)
}
if options.showHelp {
  StandardStreams.writeStdout(Options.help + "\n")
  exit(0)
}
if options.showVersion {
  StandardStreams.writeStdout("\(ServerInfo.name) \(ServerInfo.version)\n")
  exit(0)
}

StandardStreams.ignoreSIGPIPE()
let protocolFD = StandardStreams.reserveStdoutForProtocol()
let logger = Logger(level: options.logLevel)

var serverOptions = ServerOptions()
serverOptions.testMethods = options.testMethods

var configuration = Connection.Configuration(framing: options.framing)
configuration.maxFrameBytes = options.maxFrameBytes
configuration.maxBatchSize = options.maxBatchSize
configuration.json.maxDepth = options.maxDepth

// A host that closed stdout is gone: every reported change is already committed, so leave quietly.
let writer = OutputWriter(fd: protocolFD) {
  logger.info("stdout closed by the host; exiting")
  logger.flush()
  _exit(0)
}
let connection = Connection(
  configuration: configuration, registry: InboxServer.registry(options: serverOptions), writer: writer,
  logger: logger)
exit(connection.serve(input: STDIN_FILENO))
