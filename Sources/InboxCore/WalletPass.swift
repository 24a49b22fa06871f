import JSON

/// The Apple Wallet pass of a wallet card, and the hero image shown above the button.
///
/// Wire (`data.wallet`, through the one lookup), a plain URL or an object with `pass`:
/// ```
/// {"wallet": "https://passes.example.com/v1/passes/pass.com.example.loyalty/abc123?token=...",
///  "image": "https://cdn.example.com/inbox/loyalty.png"}
/// {"wallet": {"pass": "https://passes.example.com/loyalty.pkpass"}}
/// ```
/// The pass URL must be http or https: the downloader would otherwise read a `file://` path on the device.
/// The hero image is the message's image (`inbox_image`, else `data.image`), optional.
public struct WalletPass: Sendable, Hashable {
  /// The http(s) URL of the `.pkpass` file.
  public var pass: String
  /// The hero image, nil when the message has none.
  public var image: String?

  /// Builds a pass from already-validated URLs.
  public init(pass: String, image: String? = nil) {
    self.pass = pass
    self.image = image
  }

  /// The stable UI-test identifier of the "Add to Apple Wallet" button.
  public static let accessibilityIdentifier = "inboxkit.wallet.add"

  /// Decodes `data.wallet`, or the reason the wallet card cannot render. Host capability is checked by
  /// the resolver.
  static func decode(_ data: CustomData, image: String?) -> Outcome<WalletPass> {
    guard let value = data.value(for: "wallet"), value != .null else {
      return .fail("wallet needs data.wallet, a pass URL or {\"pass\": url}; data.wallet is missing")
    }
    let passValue: JSONValue
    let name: String
    switch value {
    case .string:
      passValue = value
      name = "data.wallet"
    case .object(let descriptor):
      guard let inner = descriptor["pass"], inner != .null else { return .fail("data.wallet.pass is missing") }
      passValue = inner
      name = "data.wallet.pass"
    default:
      return .fail("data.wallet is \(InboxMessage.describe(value)), not a pass URL nor an object with pass")
    }
    if passValue.stringValue?.isBlank == true { return .fail("\(name) is empty") }
    guard let pass = ParseableURL(passValue, policy: .httpOnly) else {
      return .fail("\(name) \(InboxMessage.describe(passValue)) is not an http or https URL")
    }
    return .ok(WalletPass(pass: pass.string, image: image))
  }
}
