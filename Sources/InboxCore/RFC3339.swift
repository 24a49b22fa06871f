/// Formats and parses the few date shapes the inbox meets, so the engine needs no date library.
///
/// Cards show dates as RFC 3339 UTC strings (`2026-11-30T08:00:00Z`, docs/protocol.md#card); send requests
/// give `inbox_date` as `YYYY-MM-DD` and `send_date` as `YYYY-MM-DD HH:mm` (UTC).
public enum RFC3339 {
  /// 0000-01-01T00:00:00Z, the first instant RFC 3339 can write.
  public static let earliest: Int64 = -62_167_219_200
  /// 9999-12-31T23:59:59Z, the last instant RFC 3339 can write.
  public static let latest: Int64 = 253_402_300_799

  /// `base + seconds`, held inside the years RFC 3339 can write: a clock or a payload date near the
  /// ends of `Int64` must not overflow (a trap) when a duration is added to it.
  public static func adding(_ seconds: Int64, to base: Int64) -> Int64 {
    let (sum, overflow) = base.addingReportingOverflow(seconds)
    if overflow { return seconds > 0 ? latest : earliest }
    return clamped(sum)
  }

  /// `seconds` held inside `earliest...latest`.
  public static func clamped(_ seconds: Int64) -> Int64 {
    min(max(seconds, earliest), latest)
  }

  /// `2026-11-30T08:00:00Z` for unix seconds; nil outside years 0000-9999, which RFC 3339 cannot write.
  public static func string(fromUnixSeconds seconds: Int64) -> String? {
    guard seconds >= earliest, seconds <= latest else { return nil }
    let days = floorDiv(seconds, 86_400)
    let secondOfDay = seconds - days * 86_400
    let date = CivilDate(daysSinceEpoch: days)
    return pad(date.year, 4) + "-" + pad(date.month, 2) + "-" + pad(date.day, 2) + "T"
      + pad(secondOfDay / 3600, 2) + ":" + pad(secondOfDay % 3600 / 60, 2) + ":" + pad(secondOfDay % 60, 2) + "Z"
  }

  /// Unix seconds of 00:00:00 UTC on a `YYYY-MM-DD` date; nil if the text is not exactly that or the day
  /// does not exist.
  public static func startOfDay(_ text: String) -> Int64? {
    let parts = Array(text.utf8)
    guard parts.count == 10, parts[4] == UInt8(ascii: "-"), parts[7] == UInt8(ascii: "-"),
      let year = number(parts[0..<4]), let month = number(parts[5..<7]), let day = number(parts[8..<10])
    else { return nil }
    let date = CivilDate(year: year, month: month, day: day)
    guard date.isValid else { return nil }
    return date.daysSinceEpoch * 86_400
  }

  /// Unix seconds of the last second (23:59:59 UTC) of a `YYYY-MM-DD` date; nil as for `startOfDay`.
  public static func endOfDay(_ text: String) -> Int64? {
    startOfDay(text).map { $0 + 86_399 }
  }

  /// Unix seconds of a `YYYY-MM-DD HH:mm` time in UTC; nil if the text is not exactly that shape or
  /// names a time that does not exist.
  public static func dateAndMinute(_ text: String) -> Int64? {
    let parts = Array(text.utf8)
    guard parts.count == 16, parts[10] == UInt8(ascii: " "), parts[13] == UInt8(ascii: ":"),
      let day = startOfDay(String(decoding: parts[0..<10], as: UTF8.self)),
      let hour = number(parts[11..<13]), let minute = number(parts[14..<16]),
      hour < 24, minute < 60
    else { return nil }
    return day + hour * 3600 + minute * 60
  }

  /// The ASCII digits as a number; nil if any byte is not a digit.
  private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
    var value: Int64 = 0
    for byte in digits {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int64(byte - UInt8(ascii: "0"))
    }
    return value
  }

  private static func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }

  private static func floorDiv(_ lhs: Int64, _ rhs: Int64) -> Int64 {
    let quotient = lhs / rhs
    return (lhs % rhs != 0 && (lhs < 0) != (rhs < 0)) ? quotient - 1 : quotient
  }
}
