/// A proleptic Gregorian date in UTC, because the engine formats and parses dates without a calendar API.
///
/// The conversions are Howard Hinnant's `days_from_civil` / `civil_from_days` algorithms: exact for
/// every day, leap years included, with day 0 = 1970-01-01.
struct CivilDate: Sendable, Hashable {
  var year: Int64
  var month: Int64
  var day: Int64

  /// The date of `days` days after 1970-01-01 (negative before).
  init(daysSinceEpoch days: Int64) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  }

  /// A date from its parts; the caller validates them with `isValid`.
  init(year: Int64, month: Int64, day: Int64) {
    self.year = year
    self.month = month
    self.day = day
  }

  /// Days since 1970-01-01.
  var daysSinceEpoch: Int64 {
    let adjustedYear = month <= 2 ? year - 1 : year
    let era = (adjustedYear >= 0 ? adjustedYear : adjustedYear - 399) / 400
    let yearOfEra = adjustedYear - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// Whether month and day exist (February 29 only in leap years).
  var isValid: Bool {
    guard (1...12).contains(month), day >= 1 else { return false }
    return day <= CivilDate.daysIn(month: month, year: year)
  }

  static func isLeap(_ year: Int64) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

  static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: return isLeap(year) ? 29 : 28
    case 4, 6, 9, 11: return 30
    default: return 31
    }
  }
}
