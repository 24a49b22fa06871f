import Foundation
import Testing

@testable import InboxLint

/// What `lint --snapshot` keeps and how it shows a change.
struct SnapshotTests {
  @Test func aPayloadsVerdictsAreOneSnapshotNamedByItsId() throws {
    let payload = #"{"inbox_days": 7, "title": "Sale", "content": "Hi", "platforms": [1, 3]}"#
    let (_, linted) = try LintedFileTests.lint(
      "[" + payload + ", {\"nothing\": 1}]", conditions: LintConditions(now: LintedFileTests.now))
    let path = try LintedFileTests.file("[" + payload + "]")
    defer { try? FileManager.default.removeItem(atPath: path) }
    let file = LintedFile.lint(
      .success(path), conditions: LintConditions(now: LintedFileTests.now), format: .text, keepsEntries: false,
      keepsSnapshots: true)
    #expect(linted.snapshots.isEmpty, "asked for by keepsSnapshots only")
    let snapshot = try #require(file.snapshots.first)
    #expect(file.snapshots.count == 1)
    #expect(snapshot.id.hasPrefix("sr-") && snapshot.fileName == snapshot.id + ".json")
    #expect(snapshot.label == "[0]" && snapshot.text.hasSuffix("}\n"))
    #expect(snapshot.text.contains(#"      "platform": "android","#))
  }

  @Test func anIdIsAFileNameWhateverItHolds() {
    let snapshot = CardSnapshot(id: "../a b", file: "f", label: "payload", text: "")
    #expect(snapshot.fileName == "%2E.%2Fa%20b.json")
  }

  @Test func aChangedLineIsShownAsDiffShowsIt() {
    let old = (1...10).map { "line \($0)" }.joined(separator: "\n") + "\n"
    let new = old.replacing("line 5\n", with: "line five\n")
    let diff = LineDiff.unified(old, new, oldName: "a", newName: "b")
    #expect(
      diff == """
        --- a
        +++ b
        @@ -2,7 +2,7 @@
         line 2
         line 3
         line 4
        -line 5
        +line five
         line 6
         line 7
         line 8

        """)
  }
}
