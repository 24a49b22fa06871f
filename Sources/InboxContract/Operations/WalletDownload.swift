import InboxApp
import InboxSync
import JSON
import JSONRPC

/// `wallet.download {id}` -> `{pass: {path, size, sha256, url, contentType}, message}`: the user
/// tapped "Add to Apple Wallet". The pass is downloaded (https only, the sync's CA file and proxy, at
/// most 10 MiB), checked (a zip holding a pass.json object) and kept 0600 in the user's cache
/// directory; the message becomes read. Long work, off the reader: `$/cancelRequest` stops the
/// transfer (-32800), and `wallet.progress {id, received, total?}` tells how far it is.
/// Refused with `NotAWalletCard` (-32003), or `WalletPassFailed` (-32004) with the reason.
enum WalletDownload: DeferredOperation {
  static let name = "wallet.download"
  static let execution: Method.Execution = .background

  /// The download on the worker (the network); then the message marked read, a write job the
  /// scheduler runs as it runs a write method (`WriteJobs`), not on the worker.
  static func start(_ params: MessageID, _ context: OperationContext, _ reply: Reply) {
    let cancellation = context.cancellation
    let download: PassDownload
    do {
      download = try context.inbox.downloadWalletPass(
        id: params.id, isCancelled: { cancellation.isCancelled }, progress: context.reporter.downloading)
    } catch let failure as PassFailure {
      return reply.fail(WalletPassError(id: params.id, failure: failure))
    } catch {
      return reply.fail(error)
    }
    let inbox = context.inbox
    context.writes.submit({ inbox.attemptWrite { try inbox.markDownloaded(download) } }) { outcome in
      reply(
        outcome.map { outcome in
          context.report(outcome.effects)
          let pass: JSONValue = [
            "path": .string(outcome.pass.path), "size": .int(Int64(outcome.pass.size)),
            "sha256": .string(outcome.pass.sha256), "url": .string(outcome.url),
            "contentType": .string(outcome.contentType),
          ]
          return ["pass": pass, "message": outcome.cardJSON]
        })
    }
  }
}
