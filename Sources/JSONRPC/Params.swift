import JSON

/// Typed access to a request's `params`, turning every mistake into -32602 naming the parameter.
public struct Params: Sendable {
  /// The raw params: an object, an array, or nil when absent or null.
  public let raw: JSONValue?

  public init(_ raw: JSONValue?) { self.raw = raw }

  /// The by-name params; by-position params are refused for methods that take names.
  public var object: JSONObject {
    get throws(RPCError) {
      switch raw {
      case nil: return [:]
      case .object(let object)?: return object
      case let other?: throw .invalidParams("params", "expected an object of named params, got \(other.typeName)")
      }
    }
  }

  /// A named parameter's value, nil when absent (an explicit null counts as absent).
  public func value(_ name: String) throws(RPCError) -> JSONValue? {
    let found = try object[name]
    if case .null? = found { return nil }
    return found
  }

  public func required(_ name: String) throws(RPCError) -> JSONValue {
    guard let found = try value(name) else { throw .invalidParams(name, "required") }
    return found
  }

  public func string(_ name: String) throws(RPCError) -> String? {
    guard let found = try value(name) else { return nil }
    guard let text = found.stringValue else { throw .invalidParams(name, "expected a string, got \(found.typeName)") }
    return text
  }

  public func requiredString(_ name: String) throws(RPCError) -> String {
    guard let text = try string(name) else { throw .invalidParams(name, "required") }
    return text
  }

  public func bool(_ name: String) throws(RPCError) -> Bool? {
    guard let found = try value(name) else { return nil }
    guard let flag = found.boolValue else { throw .invalidParams(name, "expected a boolean, got \(found.typeName)") }
    return flag
  }

  public func int(_ name: String) throws(RPCError) -> Int64? {
    guard let found = try value(name) else { return nil }
    guard let number = found.intValue else { throw .invalidParams(name, "expected an integer, got \(found.typeName)") }
    return number
  }

  public func objectParam(_ name: String) throws(RPCError) -> JSONObject? {
    guard let found = try value(name) else { return nil }
    guard let object = found.objectValue else {
      throw .invalidParams(name, "expected an object, got \(found.typeName)")
    }
    return object
  }
}
