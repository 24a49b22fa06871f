import JSON

/// The allow-list of Resources/keywords.json: the keywords this validator implements and the
/// annotations it reads past. Schemas/build.py reads the same file, so a schema in Schemas/ can use
/// nothing the server would skip.
public enum SchemaKeywords {
  private static let list: JSONValue = (try? JSONValue.parse(bytes: PackageResources.keywords_json)) ?? [:]

  private static func names(_ key: String, in value: JSONValue = list) -> Set<String> {
    Set((value[key]?.arrayValue ?? []).compactMap(\.stringValue))
  }

  /// Keywords that validate.
  public static let validation = names("validation")
  /// Keywords read past.
  public static let annotations = names("annotations")
  private static let annotationPrefixes = names("annotationPrefixes")
  private static let oneSchema = names("schema", in: list["subschemas"] ?? [:])
  private static let schemaList = names("list", in: list["subschemas"] ?? [:])
  private static let schemaMap = names("map", in: list["subschemas"] ?? [:])

  /// A keyword outside the allow-list, and where it is.
  public struct Unsupported: Sendable, Hashable, CustomStringConvertible {
    public var keyword: String
    /// The schema object that holds it, from the root walked.
    public var pointer: JSONPointer
    public var description: String { "\(keyword) at \(pointer.description.isEmpty ? "/" : pointer.description)" }
  }

  /// Every keyword in `schema` this validator would not enforce, and every `$ref` that leaves the document.
  public static func unsupported(in schema: JSONValue, at pointer: JSONPointer = JSONPointer()) -> [Unsupported] {
    guard case .object(let rules) = schema.plain else { return [] }
    var found: [Unsupported] = []
    for member in rules.members {
      let (keyword, value) = (member.key, member.value)
      let here = pointer.appending(keyword)
      if annotationPrefixes.contains(where: keyword.hasPrefix) { continue }
      guard validation.contains(keyword) || annotations.contains(keyword) else {
        found.append(Unsupported(keyword: keyword, pointer: pointer))
        continue
      }
      if keyword == "$ref", !(value.stringValue ?? "").hasPrefix("#") {
        found.append(Unsupported(keyword: "$ref to \(value.stringValue ?? value.jsonString)", pointer: pointer))
      }
      if oneSchema.contains(keyword) { found += unsupported(in: value, at: here) }
      if schemaList.contains(keyword) {
        for (index, item) in (value.arrayValue ?? []).enumerated() {
          found += unsupported(in: item, at: here.appending(index: index))
        }
      }
      if schemaMap.contains(keyword) {
        for entry in value.objectValue?.members ?? [] {
          found += unsupported(in: entry.value, at: here.appending(entry.key))
        }
      }
    }
    return found
  }
}
