/// What `lint --snapshot` needs of the command line beyond the snapshot directory.
enum Snapshots {
  /// The send time snapshots resolve at unless `--now` names one, 2026-01-01 00:00 UTC: a card's
  /// dates follow the send time, and a snapshot must read the same on every run.
  static let defaultNow: Int64 = 1_767_225_600

  /// The command that writes the snapshots again, with the flags the cards were resolved under:
  /// the run's own arguments without `--check` and the files (the message names the file).
  static func updateCommand(_ arguments: [String], files: [String]) -> String {
    let files = Set(files)
    let kept = arguments.filter { $0 != "--check" && !files.contains($0) }
    return (["inbox-rpc", "lint"] + kept).map(quoted).joined(separator: " ")
  }

  /// A word as a POSIX shell reads it back: bare when it is made of safe characters, else in single quotes.
  static func quoted(_ word: String) -> String {
    let safe = word.unicodeScalars.allSatisfy { scalar in
      scalar.isASCII
        && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
          || "-_./=:@%+,".unicodeScalars.contains(scalar))
    }
    return safe && !word.isEmpty ? word : "'" + word.replacing("'", with: #"'\''"#) + "'"
  }
}
