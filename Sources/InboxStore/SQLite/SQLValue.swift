/// A value bound to or read from SQL.
public enum SQLValue: Sendable, Hashable {
  case null
  case int(Int64)
  case double(Double)
  case text(String)

  public var int: Int64? {
    if case .int(let value) = self { return value }
    return nil
  }

  public var text: String? {
    if case .text(let value) = self { return value }
    return nil
  }
}

extension SQLValue: ExpressibleByIntegerLiteral, ExpressibleByStringLiteral, ExpressibleByNilLiteral {
  public init(integerLiteral value: Int64) { self = .int(value) }
  public init(stringLiteral value: String) { self = .text(value) }
  public init(nilLiteral: ()) { self = .null }
}

extension Optional where Wrapped == String {
  /// A nullable text column.
  var sql: SQLValue { map(SQLValue.text) ?? .null }
}

extension Optional where Wrapped == Int64 {
  /// A nullable integer column.
  var sql: SQLValue { map(SQLValue.int) ?? .null }
}
