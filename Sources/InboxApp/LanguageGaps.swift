import InboxCore
import JSON

/// A language one text field of a send request lacks while another field has it: a German title
/// with no German body shows the default language's body under a German title.
public struct LanguageGap: Sendable, Hashable {
  /// The language code as the other field writes it.
  public var language: String
  /// The field that lacks it (`content`, `ios_title`, `title`).
  public var field: String
  /// A field that has it.
  public var foundIn: String

  public var message: String {
    "\(field) has no \"\(language)\" text while \(foundIn) has one; devices in that language show "
      + "\(field) in the payload's default language"
  }

  public var json: JSONValue {
    ["language": .string(language), "field": .string(field), "foundIn": .string(foundIn)]
  }

  /// The gaps between the title the engine reads (`ios_title`, else `title`) and `content`, when
  /// both are written by language (a plain string serves every language).
  public static func find(in notification: JSONValue) -> [LanguageGap] {
    guard let object = notification.objectValue else { return [] }
    let titleField = object["ios_title"].map { $0 == .null } == false ? "ios_title" : "title"
    let fields = [titleField, "content"].compactMap { name -> (String, LocalizedText)? in
      guard let value = object[name], let text = LocalizedText(value), text.isByLanguage else { return nil }
      return (name, text)
    }
    guard fields.count > 1 else { return [] }
    var gaps: [LanguageGap] = []
    for (field, text) in fields {
      for (other, otherText) in fields where other != field {
        for code in otherText.codes where !text.has(code) {
          gaps.append(LanguageGap(language: code, field: field, foundIn: other))
        }
      }
    }
    return gaps
  }
}
