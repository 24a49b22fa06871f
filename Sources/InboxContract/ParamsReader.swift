import JSON
import JSONRPC

/// A request's params as a method's typed params read them, once, after the contract (Schemas/)
/// has accepted them: the one reading path both faces share. A null member reads as absent, as
/// the contract publishes it; a mistake the contract cannot express (a backend URL that is not
/// https) is -32602 naming the member, from the type that reads it.
public struct ParamsReader: Sendable {
  let object: JSONObject

  public init(_ object: JSONObject) { self.object = object }

  /// A member's value; nil when absent or null.
  public func value(_ name: String) -> JSONValue? {
    guard let found = object[name], !found.isNull else { return nil }
    return found
  }

  public func string(_ name: String) throws(RPCError) -> String? { try read(name, "a string") { $0.stringValue } }
  public func int(_ name: String) throws(RPCError) -> Int64? { try read(name, "an integer") { $0.intValue } }
  public func bool(_ name: String) throws(RPCError) -> Bool? { try read(name, "a boolean") { $0.boolValue } }
  public func object(_ name: String) throws(RPCError) -> JSONObject? { try read(name, "an object") { $0.objectValue } }

  /// An integer the contract bounds (a limit, an index), as `Int`.
  public func index(_ name: String) throws(RPCError) -> Int? { try int(name).map { Int(clamping: $0) } }

  public func strings(_ name: String) throws(RPCError) -> [String]? {
    try read(name, "an array of strings") { value in
      guard let items = value.arrayValue else { return nil }
      let texts = items.compactMap(\.stringValue)
      return texts.count == items.count ? texts : nil
    }
  }

  /// A member the method cannot do without.
  public func required<T>(_ name: String, _ read: (String) throws(RPCError) -> T?) throws(RPCError) -> T {
    guard let found = try read(name) else { throw .invalidParams(name, "required") }
    return found
  }

  private func read<T>(_ name: String, _ expected: String, _ convert: (JSONValue) -> T?) throws(RPCError) -> T? {
    guard let found = value(name) else { return nil }
    guard let converted = convert(found) else {
      throw .invalidParams(name, "expected \(expected), got \(found.typeName)")
    }
    return converted
  }
}

/// Writes typed params back as the JSON a host sends: absent members are left out.
struct ParamsWriter {
  private(set) var object: JSONObject = [:]

  mutating func set(_ name: String, _ value: JSONValue?) {
    if let value { object[name] = value }
  }
}
