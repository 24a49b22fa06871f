import JSON

/// Settings as clients send them: flat (`{"platform": "ios"}`, what `workspace/configuration`
/// answers for the section) or under the section's name (`{"inboxRpc": {…}}`, what editors pass
/// as `initializationOptions` or push in `didChangeConfiguration`), the nested ones read last.
extension LintSettings {
  static let names = ["platform", "locale", "walletPasses", "debounceMilliseconds"]

  public mutating func update(from value: JSONValue?, section: String) {
    update(from: value)
    update(from: value?[section])
  }

  /// Whether `value` holds any setting, flat or under `section`.
  static func holdsAny(_ value: JSONValue, section: String) -> Bool {
    value[section]?.objectValue != nil || names.contains { value[$0] != nil }
  }
}
