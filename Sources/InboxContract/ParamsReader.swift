import InboxCore
import JSON
import JSONRPC

/// A request's params once the method's contract (Schemas/) has accepted them: types, bounds and
/// required members are checked there, in one place, so reading them here cannot fail on the
/// host's input. An explicit null reads as absent, as the contract treats it.
struct ValidParams: Sendable {
  let object: JSONObject

  init(checked params: Params) {
    object = params.raw?.objectValue ?? [:]
  }

  func value(_ name: String) -> JSONValue? {
    guard let found = object[name], !found.isNull else { return nil }
    return found
  }

  func string(_ name: String) -> String? { value(name)?.stringValue }
  func int(_ name: String) -> Int64? { value(name)?.intValue }
  /// An integer the contract bounds (a limit, an index), as `Int`.
  func index(_ name: String) -> Int? { int(name).map { Int(clamping: $0) } }
  func bool(_ name: String) -> Bool? { value(name)?.boolValue }
  func object(_ name: String) -> JSONObject? { value(name)?.objectValue }
  func strings(_ name: String) -> [String]? { value(name)?.arrayValue?.compactMap(\.stringValue) }

  /// A member the contract requires. Absent only when this reader and the contract disagree, a
  /// defect reported as the contract would have reported it.
  func required<T>(_ name: String, _ read: (String) -> T?) throws(RPCError) -> T {
    guard let found = read(name) else { throw .invalidParams(name, "required") }
    return found
  }
}
