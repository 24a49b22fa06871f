import InboxCore
import JSON

/// Where in a payload an engine warning belongs: the value the engine names in `Warning.field` (a
/// button, a slide, a slide's image), else the field its code is about by definition (`buttonDropped`: `buttons`;
/// `slideDropped`: `carousel`; `unknownDisplayType`: `displayType`; `degraded`: the field the
/// requested kind needs, else `displayType`; `invalidCustomData`: the custom data itself). That
/// field is looked up where the engine reads it from: a send request's own members, then its `data`;
/// a push payload's own members, then `u`, then `userdata`; a backend message's `action_params`. A field
/// inside a string that encodes JSON stops at the string; a code about no one field (or a field the
/// payload lacks) stays at the payload.
enum WarningPlace {
  static func pointer(for warning: Warning, in places: [Container]) -> JSONPointer? {
    if warning.code == .invalidCustomData { return places.last?.pointer }
    if let first = warning.field.first {
      for place in places where place.value.objectValue?[first] != nil {
        return place.encoded ? place.pointer : JSONPointer(place.pointer.tokens + warning.field)
      }
    }
    for key in keys(warning) {
      for place in places {
        guard let object = place.value.objectValue else { continue }
        if object[key] != nil { return place.encoded ? place.pointer : place.pointer.appending(key) }
      }
    }
    return nil
  }

  /// Where `key` of the custom data is, in the engine's order of lookup.
  static func pointer(forKey key: String, in places: [Container]) -> JSONPointer? {
    for place in places where place.value.objectValue?[key] != nil {
      return place.encoded ? place.pointer : place.pointer.appending(key)
    }
    return nil
  }

  private static func keys(_ warning: Warning) -> [String] {
    switch warning.code {
    case .unknownDisplayType: ["displayType"]
    case .buttonDropped, .unknownButtonAction, .invalidButtonURL: ["buttons"]
    case .slideDropped: ["carousel"]
    case .degraded: kindField(warning.requestedKind).map { [$0, "displayType"] } ?? ["displayType"]
    default: []
    }
  }

  /// The custom-data field a kind cannot render without.
  private static func kindField(_ kind: String?) -> String? {
    switch kind {
    case "carousel", "video", "wallet": kind
    case "banner", "captioned": "image"
    default: nil
    }
  }

  /// Where custom data may be, in the engine's order of lookup; `encoded` when the value was
  /// decoded from a JSON string in the file (the string is as deep as a position can go).
  struct Container {
    var pointer: JSONPointer
    var value: JSONValue
    var encoded: Bool
  }

  /// A payload's containers, found (and their strings decoded) once for all its warnings.
  static func containers(_ payload: JSONValue) -> [Container] {
    if payload["inbox_id"] == nil && payload["pw_inbox"] == nil {
      // A send request's own members (`title`, `platforms`), then its custom data.
      return [
        Container(pointer: JSONPointer(), value: payload, encoded: false),
        Container(pointer: JSONPointer(["data"]), value: payload["data"] ?? .null, encoded: false),
      ]
    }
    var root = Container(pointer: JSONPointer(), value: payload, encoded: false)
    if let params = payload["action_params"] { root = decoded(JSONPointer(["action_params"]), params, within: root) }
    var found = [root]
    for key in ["u", "userdata"] {
      if let value = root.value[key] { found.append(decoded(root.pointer.appending(key), value, within: root)) }
    }
    return found
  }

  private static func decoded(_ pointer: JSONPointer, _ value: JSONValue, within parent: Container) -> Container {
    let at = parent.encoded ? parent.pointer : pointer
    guard let text = value.stringValue else { return Container(pointer: at, value: value, encoded: parent.encoded) }
    return Container(pointer: at, value: (try? JSONValue.parse(text)) ?? .null, encoded: true)
  }
}
