import InboxCore
import InboxStore
import InboxSync
import JSON

/// A wallet pass downloaded for a card: the file kept for the host, and the card after (read).
public struct PassOutcome: Sendable, Hashable {
  public var pass: PassCache.Kept
  /// Where the bytes came from, after redirects.
  public var url: String
  public var contentType: String
  public var card: Card
  public var cardJSON: JSONValue
  public var effects: Effects
}

/// A wallet pass downloaded and kept, its message not yet marked read (`Inbox.markDownloaded`).
public struct PassDownload: Sendable, Hashable {
  public var id: String
  public var pass: PassCache.Kept
  public var url: String
  public var contentType: String
  public var effects: Effects
}

/// How far a pass download is: bytes received, and the length the server announced (nil: none).
public struct PassProgress: Sendable, Hashable {
  public var id: String
  public var received: Int
  public var total: Int?
}

/// The host's report of the Wallet sheet, recorded, and the card after it.
public struct WalletReport: Sendable, Hashable {
  public var record: WalletRecord
  public var card: Card
  public var cardJSON: JSONValue
  public var effects: Effects
}

extension Inbox {
  /// The user tapped "Add to Apple Wallet": downloads the card's pass (`PassDownloader`: https only,
  /// the sync's CA file and proxy, a size cap, cancellable), checks it is a pass and keeps it for the
  /// user alone (`PassCache`); `markDownloaded` then marks the message read, as InboxKit does when it presents the
  /// system sheet. A download that fails marks nothing (InboxKit reports `didFailToAddWalletPassFor`
  /// and leaves the message as it was). `progress` hears the download every tenth of its announced
  /// length, or every 64 KiB when none is announced. Refused with `InboxError.wrongKind` when the
  /// card does not render as a wallet card (a host that cannot add passes sees it as classic).
  public func downloadWalletPass(
    id: String, isCancelled: @escaping @Sendable () -> Bool, progress: @escaping (PassProgress) -> Void
  ) throws -> PassDownload {
    var effects = Effects()
    let card = try self.card(visibleMessage(id, now: clock.now), &effects)
    guard case .wallet(let wallet) = card.content else { throw InboxError.wrongKind(card, expected: .wallet) }
    var next = 0
    let (kept, download) = try passes.fetch(wallet.pass, isCancelled: isCancelled) { received, total in
      guard received > 0, received >= next else { return }
      next = received + max(64 << 10, (total ?? 0) / 10)
      progress(PassProgress(id: id, received: received, total: total))
    }
    return PassDownload(id: id, pass: kept, url: download.url, contentType: download.contentType, effects: effects)
  }

  /// Marks the message of a pass downloaded read: the last step of `downloadWalletPass`.
  public func markDownloaded(_ download: PassDownload) throws -> PassOutcome {
    var effects = download.effects
    let found = try markRead(download.id, now: clock.now, &effects)
    return PassOutcome(
      pass: download.pass, url: download.url, contentType: download.contentType, card: found.card,
      cardJSON: found.json, effects: effects)
  }

  /// The host's report of the Wallet sheet it presented: the pass `added` (the message is read, as
  /// InboxKit marks it when the pass is in the Wallet), or adding it `failed` for `reason`. A
  /// cancelled sheet is reported by not calling. The last report of each message is kept with the
  /// store until the account changes (a change of application or user empties the inbox).
  public func reportWalletPass(id: String, outcome: WalletRecord.Outcome, reason: String?) throws -> WalletReport {
    let now = clock.now
    var effects = Effects()
    let card = try self.card(visibleMessage(id, now: now), &effects)
    guard case .wallet = card.content else { throw InboxError.wrongKind(card, expected: .wallet) }
    let record = WalletRecord(id: id, outcome: outcome, reason: outcome == .failed ? reason : nil, reportedAt: now)
    guard try store.recordWallet(record, now: now) else { throw InboxError.messageNotFound(id: id) }
    let found =
      outcome == .added ? try markRead(id, now: now, &effects) : try resolved(visibleMessage(id, now: now), &effects)
    return WalletReport(record: record, card: found.card, cardJSON: found.json, effects: effects)
  }
}
