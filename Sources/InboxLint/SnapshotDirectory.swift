import InboxApp
import JSON
import Posix

/// `lint --snapshot DIR`: each payload's cards kept as a file of `DIR` (`CardSnapshot`), written
/// (`update`) or compared (`check`), as Jest's and insta's snapshots are.
///
/// Checking, a file that differs fails the run with its diff and the command that updates it; a
/// payload without a file gets one written, unless `CI` is `true` (Jest's `--ci`): then it fails,
/// as a snapshot only a CI machine has seen would never be reviewed. A payload whose edit changed
/// its derived id (a send request's id hashes its text) is compared with the file its place in
/// the same file had, so a changed title shows as a diff, not as a new payload.
public struct SnapshotDirectory {
  public enum Mode: Sendable { case update, check }

  let path: String
  let mode: Mode
  /// Whether a snapshot missing in check mode may be written (not under `CI=true`).
  let writesNew: Bool
  /// The command line that writes the snapshots again, for the messages: `inbox-rpc lint --snapshot DIR`.
  let updateCommand: String
  /// Each snapshot taken this run, by file name: two payloads cannot share one.
  private var taken: [String: String] = [:]
  /// Each file of the directory by the place of its payload (`file label`), read when first needed.
  private var bySource: [String: String]?
  public private(set) var fails = false
  private var counts = (matched: 0, written: 0, unchanged: 0, failed: 0)

  public init(path: String, mode: Mode, environment ci: String?, updateCommand: String) {
    self.path = path
    self.mode = mode
    self.writesNew = mode == .update || ci != "true"
    self.updateCommand = updateCommand
  }

  /// Takes a file's snapshots; returns what to say of them on stderr.
  public mutating func take(_ snapshots: [CardSnapshot]) -> String {
    var said = ""
    for snapshot in snapshots { said += take(snapshot) }
    return said
  }

  private mutating func take(_ snapshot: CardSnapshot) -> String {
    let file = path + "/" + snapshot.fileName
    if let other = taken[snapshot.fileName] {
      return failed(
        "\(snapshot.source) derives the same id as \(other) (\(snapshot.id)); one snapshot holds one payload")
    }
    taken[snapshot.fileName] = snapshot.source
    let stored = Self.text(of: file)
    if stored == snapshot.text {
      if mode == .check { counts.matched += 1 } else { counts.unchanged += 1 }
      return ""
    }
    let renamed = stored == nil ? formerFile(of: snapshot, besides: file) : nil
    switch mode {
    case .update:
      if let renamed { Files.remove(renamed) }
      return write(snapshot, to: file)
    case .check:
      let compared =
        stored.map { ($0, file) } ?? renamed.flatMap { former in Self.text(of: former).map { ($0, former) } }
      if let (stored, name) = compared {
        let diff = LineDiff.unified(stored, snapshot.text, oldName: name, newName: "\(snapshot.source) (now)")
        return failed(
          "snapshot \(name) no longer matches \(snapshot.source):\n\(diff)if the change is meant, update it: "
            + "\(updateCommand) \(snapshot.file)")
      }
      guard writesNew else {
        return failed(
          "no snapshot \(file) for \(snapshot.source), and CI=true writes none: run \(updateCommand) "
            + "\(snapshot.file) where CI is not set, and commit \(file)")
      }
      return write(snapshot, to: file)
    }
  }

  /// What the run did, for the end of stderr.
  public var summary: String {
    switch mode {
    case .update: "snapshots in \(path): \(counts.written) written, \(counts.unchanged) unchanged\n"
    case .check:
      "snapshots in \(path): \(counts.matched) match, \(counts.failed) fail, \(counts.written) written\n"
    }
  }

  private mutating func write(_ snapshot: CardSnapshot, to file: String) -> String {
    do {
      try Files.createDirectories(path, mode: 0o755)
      try Files.replace(file, with: snapshot.text)
      counts.written += 1
      return mode == .check ? Self.said("wrote the new snapshot \(file) for \(snapshot.source)") : ""
    } catch {
      return failed("\(error)")
    }
  }

  private mutating func failed(_ message: String) -> String {
    fails = true
    counts.failed += 1
    return Self.said(message)
  }

  /// A message as the command says it on stderr, one or more lines.
  private static func said(_ message: String) -> String {
    "inbox-rpc lint: " + message + (message.hasSuffix("\n") ? "" : "\n")
  }

  /// The file of the directory that holds `snapshot`'s place under another name.
  private mutating func formerFile(of snapshot: CardSnapshot, besides file: String) -> String? {
    if bySource == nil { bySource = Self.sources(in: path) }
    guard let former = bySource?[snapshot.source], former != file else { return nil }
    return former
  }

  private static func text(of file: String) -> String? {
    (try? Files.contents(of: file)).map { String(decoding: $0, as: UTF8.self) }
  }

  /// Each snapshot file of `directory` by the place its payload was (`source` in the file).
  private static func sources(in directory: String) -> [String: String] {
    var found: [String: String] = [:]
    for file in (try? Files.files(under: directory, endingWith: ".json")) ?? [] {
      guard let text = text(of: file), let value = try? JSONValue.parse(text),
        let source = value["source"]?["file"]?.stringValue, let label = value["source"]?["payload"]?.stringValue
      else { continue }
      found["\(source) \(label)"] = file
    }
    return found
  }
}
