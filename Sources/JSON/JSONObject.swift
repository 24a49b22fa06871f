/// A JSON object whose members keep the order they were read or inserted in.
///
/// Equality ignores member order, as JSON does; output keeps it. Lookups are linear,
/// which beats hashing for the small objects JSON-RPC carries; `index` switches to a
/// dictionary once an object grows past `indexThreshold` members.
public struct JSONObject: Sendable {
  /// One key and its value.
  public struct Member: Sendable, Hashable {
    public var key: String
    public var value: JSONValue
    public init(key: String, value: JSONValue) {
      self.key = key
      self.value = value
    }
  }

  public private(set) var members: [Member]
  private var index: [String: Int]?
  private static let indexThreshold = 16

  public init() { members = [] }

  /// Builds an object from pairs; a later duplicate key replaces the earlier value in place.
  public init<S: Sequence>(_ pairs: S) where S.Element == (String, JSONValue) {
    members = []
    members.reserveCapacity(pairs.underestimatedCount)
    for (key, value) in pairs { self[key] = value }
  }

  /// Builds an object from members whose keys are known to be distinct (the parser refuses
  /// duplicates), skipping the search for an earlier one.
  init(distinctMembers: [Member]) {
    members = distinctMembers
    rebuildIndex()
  }

  public var count: Int { members.count }
  public var isEmpty: Bool { members.isEmpty }
  public var keys: [String] { members.map(\.key) }

  private func position(of key: String) -> Int? {
    if let index { return index[key] }
    return members.firstIndex { $0.key == key }
  }

  /// The value for `key`, or nil; setting nil removes the member.
  public subscript(key: String) -> JSONValue? {
    get { position(of: key).map { members[$0].value } }
    set {
      if let at = position(of: key) {
        if let newValue {
          members[at].value = newValue
        } else {
          members.remove(at: at)
          rebuildIndex()
        }
      } else if let newValue {
        members.append(Member(key: key, value: newValue))
        if index != nil {
          index?[key] = members.count - 1
        } else if members.count > Self.indexThreshold {
          rebuildIndex()
        }
      }
    }
  }

  /// A copy without the given keys.
  public func removing(_ keys: Set<String>) -> JSONObject {
    var copy = JSONObject()
    for member in members where !keys.contains(member.key) { copy[member.key] = member.value }
    return copy
  }

  private mutating func rebuildIndex() {
    guard members.count > Self.indexThreshold else {
      index = nil
      return
    }
    var built = [String: Int](minimumCapacity: members.count)
    for (offset, member) in members.enumerated() { built[member.key] = offset }
    index = built
  }
}

extension JSONObject: Sequence {
  public func makeIterator() -> IndexingIterator<[Member]> { members.makeIterator() }
}

extension JSONObject: Hashable {
  public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
    guard lhs.count == rhs.count else { return false }
    return lhs.members.allSatisfy { rhs[$0.key] == $0.value }
  }

  public func hash(into hasher: inout Hasher) {
    // Order-independent, to agree with ==.
    var combined = 0
    for member in members { combined ^= member.hashValue }
    hasher.combine(count)
    hasher.combine(combined)
  }
}

extension JSONObject: ExpressibleByDictionaryLiteral {
  public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
