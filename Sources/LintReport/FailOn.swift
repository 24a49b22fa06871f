/// `--fail-on error|warning|never`: the least severity that makes the run fail.
public enum FailOn: String, Sendable, CaseIterable {
  case error, warning, never

  /// Reads the flag's value; nil for anything else.
  public init?(flag: String) { self.init(rawValue: flag) }

  /// True when `findings` hold one at or above the threshold.
  public func fails(_ findings: [Finding]) -> Bool {
    switch self {
    case .never: false
    case .warning: findings.contains { $0.severity >= .warning }
    case .error: findings.contains { $0.severity >= .error }
    }
  }
}
