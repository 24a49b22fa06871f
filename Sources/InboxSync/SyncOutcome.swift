import JSON

/// What the last sync run on a store did, kept with the store (setting `sync.lastRun`) by the run
/// holding the lease (`SyncGate`), so another process whose run waited for it can report it rather
/// than fetch again, and a periodic sync can skip when another process fetched within its interval.
public struct SyncOutcome: Sendable, Equatable {
  static let key = "sync.lastRun"

  /// Runs recorded on the store so far, this one included.
  public var run: Int64
  /// The `InboxStore.changeOrigin` of the process that ran it.
  public var by: Int64
  /// When it started (unix seconds).
  public var at: Int64
  /// It fetched and merged the inbox (not throttled, not failed).
  public var fetched: Bool
  /// It ended without an error and every push it tried was confirmed.
  public var ok: Bool
  public var report: SyncReport

  /// The outcome read back from the store; nil when none is there or it is not readable.
  init?(json: JSONValue?) {
    guard let json, let run = json["run"]?.intValue, let by = json["by"]?.intValue, let at = json["at"]?.intValue,
      let fetched = json["fetched"]?.boolValue, let ok = json["ok"]?.boolValue, let report = json["report"]
    else { return nil }
    self.init(run: run, by: by, at: at, fetched: fetched, ok: ok, report: SyncReport(stored: report))
  }

  init(run: Int64, by: Int64, at: Int64, fetched: Bool, ok: Bool, report: SyncReport) {
    self.run = run
    self.by = by
    self.at = at
    self.fetched = fetched
    self.ok = ok
    self.report = report
  }

  var json: JSONValue {
    [
      "run": .int(run), "by": .int(by), "at": .int(at), "fetched": .bool(fetched), "ok": .bool(ok),
      "report": report.stored,
    ]
  }
}

extension SyncReport {
  /// The report as the store keeps it: ids and counts (a push error is told by `SyncOutcome.ok`).
  fileprivate var stored: JSONValue {
    let ids = { (list: [String]) in JSONValue.array(list.map(JSONValue.string)) }
    return [
      "added": ids(added), "updated": ids(updated), "removed": ids(removed), "expired": ids(expired),
      "pushed": .int(Int64(pushed)), "failed": .int(Int64(failed)), "pending": .int(Int64(pending)),
      "throttled": .bool(throttled),
    ]
  }

  fileprivate init(stored json: JSONValue) {
    self.init()
    let ids = { (key: String) in json[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
    added = ids("added")
    updated = ids("updated")
    removed = ids("removed")
    expired = ids("expired")
    pushed = Int(json["pushed"]?.intValue ?? 0)
    failed = Int(json["failed"]?.intValue ?? 0)
    pending = Int(json["pending"]?.intValue ?? 0)
    throttled = json["throttled"]?.boolValue ?? false
  }
}
