import JSON

/// Where in the checked value a keyword is looking: the path people read in messages
/// (`payload.buttons[2].title`) and the JSON pointer tools map to a file position.
struct SchemaPlace: Sendable {
  var path: String
  var pointer: JSONPointer

  func member(_ key: String) -> SchemaPlace {
    SchemaPlace(path: path.isEmpty ? key : "\(path).\(key)", pointer: pointer.appending(key))
  }

  func item(_ index: Int) -> SchemaPlace {
    SchemaPlace(path: "\(path)[\(index)]", pointer: pointer.appending(index: index))
  }
}

extension SchemaViolation {
  init(_ place: SchemaPlace, _ rule: String, _ message: String) {
    self.init(path: place.path, rule: rule, message: message, pointer: place.pointer)
  }
}
