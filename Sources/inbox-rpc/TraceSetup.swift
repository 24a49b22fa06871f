import InboxApp
import InboxSync
import JSONRPC
import JSONSchema
import Posix

/// `--trace FILE`: the tracer both faces' connections write to, told every secret it must keep out.
enum TraceSetup {
  static func tracer(_ options: Options, token: APIToken?, environment: Environment, logger: Logger) throws(SystemError)
    -> Tracer?
  {
    guard let path = options.trace else { return nil }
    let file = try TraceFile(path: path, maxBytes: options.traceMaxBytes)
    var secrets: [String] = []
    if let token { secrets.append(token.secret) }
    // Whatever else the places a token comes from hold, in case it is not the one in use.
    if let text = environment["INBOX_RPC_API_TOKEN"] { secrets.append(text.trimmingWhitespace()) }
    if let tokenFile = options.tokenFile, let data = try? Files.contents(of: tokenFile) {
      secrets.append(String(decoding: data, as: UTF8.self).trimmingWhitespace())
    }
    let redactor = TraceRedactor(secrets: secrets, secretParams: SecretParams.paths(in: Contract.document))
    return Tracer(file: file, redactor: redactor, logger: logger)
  }
}
