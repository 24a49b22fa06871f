/// `--fail-on error|warning|never`: the least severity that makes the run fail.
public enum FailOn: String, Sendable, CaseIterable {
  case error, warning, never

  /// Reads the flag's value; nil for anything else.
  public init?(flag: String) { self.init(rawValue: flag) }

  /// True when `findings` hold one at or above the threshold.
  public func fails(_ findings: [Finding]) -> Bool {
    fails(worst: findings.worst)
  }

  /// True when `worst`, the most severe of some findings (nil: none), is at or above the threshold.
  public func fails(worst: Severity?) -> Bool {
    guard let worst else { return false }
    switch self {
    case .never: return false
    case .warning: return worst >= .warning
    case .error: return worst >= .error
    }
  }
}
