import InboxApp
import InboxCore
import JSON
import LintReport

/// What the editor's configuration (section `inboxRpc`) asks: the host the cards are resolved for,
/// as `inbox-rpc lint --platform --locale --wallet-passes` says it.
public struct LintSettings: Sendable, Equatable {
  public var platform: String?
  public var locale: String?
  public var walletPasses = false
  /// Milliseconds from the last edit to the lint that publishes diagnostics.
  public var debounceMilliseconds = 150

  public init(platform: String? = nil, locale: String? = nil, walletPasses: Bool = false) {
    self.platform = platform
    self.locale = locale
    self.walletPasses = walletPasses
  }

  /// Reads a configuration object; members it does not know, or of the wrong type, are left as they were.
  public mutating func update(from value: JSONValue?) {
    guard let value else { return }
    if let platform = value["platform"] { self.platform = platform.stringValue.flatMap { $0.isEmpty ? nil : $0 } }
    if let locale = value["locale"] {
      self.locale = locale.stringValue.flatMap { LanguageTag.isWellFormed($0) ? $0 : nil }
    }
    if let wallet = value["walletPasses"]?.boolValue { walletPasses = wallet }
    if let debounce = value["debounceMilliseconds"]?.intValue {
      debounceMilliseconds = Int(min(max(debounce, 0), 5000))
    }
  }

  /// The host's attributes these settings describe.
  public var attributes: Attributes {
    var attributes = Attributes()
    attributes.platform = platform
    attributes.locale = locale
    if walletPasses { attributes.walletPasses = true }
    return attributes
  }
}

/// One document linted: the findings as `inbox-rpc lint` places them, and the verdicts they came
/// from (for hover and the preview).
public struct LintedDocument: Sendable {
  public var findings: [Finding]
  public var reports: [PayloadLint.Report]

  public init(findings: [Finding], reports: [PayloadLint.Report]) {
    self.findings = findings
    self.reports = reports
  }
}

/// Lints a document's bytes as `inbox-rpc lint` lints a file: the command line hands the server its
/// own, so the editor and CI say the same thing about the same file. `verdicts` says what each
/// payload becomes (a hover, the preview) without placing any finding; `lint` adds the findings,
/// placed in the text (diagnostics), which a large document's many findings make the longer part.
public struct DocumentLinter: Sendable {
  public typealias Run<Result> = @Sendable (_ file: String, _ bytes: [UInt8], _ settings: LintSettings) -> Result

  public var verdicts: Run<[PayloadLint.Report]>
  public var lint: Run<LintedDocument>

  public init(verdicts: @escaping Run<[PayloadLint.Report]>, lint: @escaping Run<LintedDocument>) {
    self.verdicts = verdicts
    self.lint = lint
  }
}
