import Synchronization

/// The fault rules and what is left of each one's count, shared by every connection's thread.
public final class FaultPlan: Sendable {
  private let rules: Mutex<[FaultRule]>

  public init(_ rules: [FaultRule]) { self.rules = Mutex(rules) }

  /// The first rule that matches `method`, its count taken down by one.
  public func take(for method: String) -> FaultRule? {
    rules.withLock { rules in
      guard let index = rules.firstIndex(where: { $0.method == nil || $0.method == method }) else { return nil }
      let rule = rules[index]
      if let count = rule.count {
        if count <= 1 { rules.remove(at: index) } else { rules[index].count = count - 1 }
      }
      return rule
    }
  }
}
