import InboxCore
import Testing

/// Dates are RFC 3339 UTC strings computed without a calendar library (civil-from-days); the expected
/// values come from Python's `datetime`, an independent implementation.
@Suite struct RFC3339Tests {
  struct Row: Sendable, CustomTestStringConvertible {
    var seconds: Int64
    var text: String
    var testDescription: String { text }
  }

  static let rows: [Row] = [
    Row(seconds: 0, text: "1970-01-01T00:00:00Z"),
    Row(seconds: -1, text: "1969-12-31T23:59:59Z"),
    Row(seconds: 1_780_000_000, text: "2026-05-28T20:26:40Z"),
    Row(seconds: 951_782_400, text: "2000-02-29T00:00:00Z"),  // 2000 is a leap year (divisible by 400)
    Row(seconds: 951_868_800, text: "2000-03-01T00:00:00Z"),
    Row(seconds: -2_203_977_600, text: "1900-02-28T00:00:00Z"),  // 1900 is not (divisible by 100)
    Row(seconds: -2_203_891_200, text: "1900-03-01T00:00:00Z"),
    Row(seconds: 1_709_251_199, text: "2024-02-29T23:59:59Z"),
    Row(seconds: 1_583_020_799, text: "2020-02-29T23:59:59Z"),
    Row(seconds: 4_107_542_399, text: "2100-02-28T23:59:59Z"),  // 2100 is not
    Row(seconds: 4_107_542_400, text: "2100-03-01T00:00:00Z"),
    Row(seconds: -3_153_600_000, text: "1870-01-25T00:00:00Z"),
    Row(seconds: -62_135_596_800, text: "0001-01-01T00:00:00Z"),
    Row(seconds: 253_402_300_799, text: "9999-12-31T23:59:59Z"),
    Row(seconds: -62_167_219_200, text: "0000-01-01T00:00:00Z"),
  ]

  /// Each instant formats to the string Python's datetime gives.
  @Test(arguments: rows)
  func formats(_ row: Row) {
    #expect(RFC3339.string(fromUnixSeconds: row.seconds) == row.text)
  }

  /// Instants RFC 3339 cannot write (before year 0, after 9999) give nil, never a wrong string.
  @Test(arguments: [RFC3339.earliest - 1, RFC3339.latest + 1, Int64.min, Int64.max])
  func outOfRangeIsNil(_ seconds: Int64) {
    #expect(RFC3339.string(fromUnixSeconds: seconds) == nil)
  }

  /// `YYYY-MM-DD` parses to midnight UTC, and only for days that exist.
  @Test func parsesDays() {
    #expect(RFC3339.startOfDay("1970-01-01") == 0)
    #expect(RFC3339.startOfDay("2000-02-29") == 951_782_400)
    #expect(RFC3339.startOfDay("2024-02-29") == 1_709_164_800)
    #expect(RFC3339.startOfDay("1600-02-29") == -11_670_998_400)
    #expect(RFC3339.startOfDay("2100-02-28") == 4_107_456_000)
    #expect(RFC3339.startOfDay("9999-12-31") == 253_402_214_400)
    #expect(RFC3339.endOfDay("2024-02-29") == 1_709_251_199)
    for invalid in [
      "2023-02-29", "1900-02-29", "2100-02-29", "2024-13-01", "2024-00-10", "2024-04-31", "2024-01-00",
      "2024-2-29", "2024-02-29T", "abcd-ef-gh", "", "2024/02/29", "+024-02-29",
    ] {
      #expect(RFC3339.startOfDay(invalid) == nil, "\(invalid)")
    }
  }

  /// `YYYY-MM-DD HH:mm` parses as UTC and refuses impossible times.
  @Test func parsesMinutes() {
    #expect(RFC3339.dateAndMinute("2026-06-01 09:30") == 1_780_306_200)
    #expect(RFC3339.dateAndMinute("1970-01-01 00:00") == 0)
    #expect(RFC3339.dateAndMinute("2024-02-29 23:59") == 1_709_251_140)
    for invalid in ["2026-06-01 24:00", "2026-06-01 09:60", "2026-06-01T09:30", "2026-06-01 9:30", "2026-06-01"] {
      #expect(RFC3339.dateAndMinute(invalid) == nil, "\(invalid)")
    }
  }

  /// Formatting the start of every day of 1999-2001 gives back that day: parse and format agree.
  @Test func roundTripsEveryDay() throws {
    var seconds = try #require(RFC3339.startOfDay("1999-01-01"))
    for _ in 0..<(365 * 3 + 1) {
      let text = try #require(RFC3339.string(fromUnixSeconds: seconds))
      #expect(RFC3339.startOfDay(String(text.prefix(10))) == seconds)
      #expect(text.hasSuffix("T00:00:00Z"))
      seconds += 86_400
    }
    #expect(RFC3339.string(fromUnixSeconds: seconds) == "2002-01-01T00:00:00Z")
  }

  /// A duration added to a date near either end of Int64 saturates inside the years RFC 3339 writes.
  @Test func addingStaysInRange() {
    #expect(RFC3339.adding(86_400, to: Int64.max - 10) == RFC3339.latest)
    #expect(RFC3339.adding(-86_400, to: Int64.min + 10) == RFC3339.earliest)
    #expect(RFC3339.adding(36_500 * 86_400, to: 9_223_372_036_854_775_000) == RFC3339.latest)
    #expect(RFC3339.adding(60, to: 0) == 60)
  }
}
