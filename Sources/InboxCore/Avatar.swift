import JSON

/// The coloured initial a classic card shows instead of an image (docs/engine.md#classic-avatar), stable per message.
///
/// JSON: `{"initial": "S", "color": "#4DB6AC"}`.
public struct Avatar: Sendable, Hashable {
  /// The first character of the title (else of the body), upper-cased; `"?"` when both are empty.
  public var initial: String
  /// A `#RRGGBB` colour from `palette`.
  public var color: String

  /// Eight colours that carry a white initial; the index is the 32-bit FNV-1a hash of the message id's UTF-8
  /// bytes modulo 8, so the same id gets the same colour on every run and every host.
  public static let palette = [
    "#E57373", "#F06292", "#BA68C8", "#7986CB", "#4FC3F7", "#4DB6AC", "#81C784", "#FFB74D",
  ]

  /// Builds an avatar from explicit parts.
  public init(initial: String, color: String) {
    self.initial = initial
    self.color = color
  }

  /// The avatar of a message with this id, title and body.
  public init(id: String, title: String?, body: String?) {
    let source = [title, body].lazy.compactMap { $0?.trimmingWhitespace() }.first { !$0.isEmpty }
    if let first = source?.first {
      // Upper-casing can lengthen a character ("ß" -> "SS"); an initial stays one character.
      initial = String(String(first).uppercased().first ?? first)
    } else {
      initial = "?"
    }
    color = Avatar.color(forID: id)
  }

  /// The palette colour of a message id.
  public static func color(forID id: String) -> String {
    palette[Int(StableHash.fnv1a32(id.utf8) % UInt32(palette.count))]
  }

  /// `{"initial", "color"}`.
  public var json: JSONValue { ["initial": .string(initial), "color": .string(color)] }
}
