import InboxCore
import JSON
import JSONSchema

/// Contract testing from a shell: checks what a marketer wrote against the input schemas in
/// Schemas/ (SendRequestNotification, MarketerData) and the engine's rules, and says what each
/// card will become, with every warning (`inbox-rpc lint`).
public enum PayloadLint {
  /// What one notification or payload becomes on one device: one report per payload, or per
  /// platform of a send request's `platforms` (and per language with `Options.everyLocale`).
  public struct Report: Sendable {
    /// Where it was in the file: `notifications[2]`, or `payload`.
    public var label: String
    /// The card, when the payload is an inbox message.
    public var card: Card?
    /// Why it is not an inbox message.
    public var refusal: String?
    public var warnings: [Warning]
    /// Every break of the input schema (up to 100), which the engine may tolerate but a marketer should fix.
    public var schemaProblems: [SchemaViolation]
    /// Where the payload is in the file's JSON (each schema problem has its own pointer).
    public var pointer = JSONPointer()
    /// The platform of the request's `platforms` this verdict is for; nil when it names none.
    public var platform: TargetPlatform?
    /// The locale this verdict was resolved in (`--locale`, or each language with `everyLocale`).
    public var locale: String?
    /// Languages one text field has and another lacks.
    public var languageGaps: [LanguageGap] = []
    /// The resolver's rules as it applied them, when the run explains (`Options.explains`).
    public var reasons: [ResolverReason] = []

    public var isClean: Bool { refusal == nil && warnings.isEmpty && schemaProblems.isEmpty && languageGaps.isEmpty }

    /// The label with the verdict's platform and locale: `request.notifications[0] on android [de]`.
    public var verdictLabel: String {
      label + (platform.map { " on \($0.name)" } ?? "") + (locale.map { " [\($0)]" } ?? "")
    }
  }

  /// What a run asks beyond the host's attributes.
  public struct Options: Sendable, Hashable {
    /// Keeps the platforms of a request's `platforms` this names (`--platform`; see `PlatformVerdicts`).
    public var platform: String?
    /// A verdict per language the payload writes its title or body in, instead of one in `locale`.
    public var everyLocale = false
    /// Whether each verdict keeps the resolver's reasons (`lint --explain`).
    public var explains = false

    public init(platform: String? = nil, everyLocale: Bool = false, explains: Bool = false) {
      self.platform = platform
      self.everyLocale = everyLocale
      self.explains = explains
    }
  }

  /// Where a file lists its payloads: an array of notifications, or a createMessage request's
  /// `notifications`. Each item is linted on its own, named and placed by its index.
  public enum PayloadList: Sendable, CaseIterable {
    case array, requestNotifications

    /// The object keys from the top to the list (none: the file is the array).
    public var path: [String] {
      switch self {
      case .array: []
      case .requestNotifications: ["request", "notifications"]
      }
    }

    /// The list in `value`, as `lint` reads it: a request's notifications first.
    static func items(in value: JSONValue) -> (PayloadList, [JSONValue])? {
      if let notifications = value["request"]?["notifications"]?.arrayValue {
        return (.requestNotifications, notifications)
      }
      return value.arrayValue.map { (.array, $0) }
    }

    /// Item `index`'s name in reports: `request.notifications[2]`, `[2]`.
    public func label(_ index: Int) -> String { path.joined(separator: ".") + "[\(index)]" }

    /// Where item `index` is in the file's JSON.
    public func pointer(_ index: Int) -> JSONPointer { JSONPointer(path + ["\(index)"]) }
  }

  /// Lints a file's JSON: a createMessage request, one notification object, an array of them, a push
  /// payload or a backend inbox message. `now` is the send time used for dates. The payloads of a
  /// list are linted on every core, each on its own: the time grows with their number only.
  public static func lint(
    _ value: JSONValue, attributes: Attributes = Attributes(), now: Int64, options: Options = Options()
  ) -> [Report] {
    guard let (list, items) = PayloadList.items(in: value) else {
      return reports(value, label: "payload", at: JSONPointer(), attributes: attributes, now: now, options: options)
    }
    return Parallel.map(Array(items.enumerated())) { index, item in
      lint(item: item, at: index, of: list, attributes: attributes, now: now, options: options)
    }.flatMap { $0 }
  }

  /// Lints item `index` of a file's payload list, as `lint` lints it among the others. `id` gives
  /// the id a send request's notification derives (`StableID`), when the caller can write its
  /// canonical bytes more cheaply than from the Swift value; asked only of a send request.
  public static func lint(
    item payload: JSONValue, at index: Int, of list: PayloadList, attributes: Attributes = Attributes(), now: Int64,
    options: Options = Options(), id: (() -> String)? = nil
  ) -> [Report] {
    reports(
      payload, label: list.label(index), at: list.pointer(index), attributes: attributes, now: now, options: options,
      id: id)
  }

  private static func reports(
    _ payload: JSONValue, label: String, at pointer: JSONPointer, attributes: Attributes, now: Int64,
    options: Options, id: (() -> String)? = nil
  ) -> [Report] {
    let validator = Self.validator
    var problems: [SchemaViolation] = []
    var gaps: [LanguageGap] = []
    let sendRequest = isSendRequest(payload)
    if sendRequest {
      problems = check(payload, against: .sendRequestNotification, at: label, pointer: pointer, validator)
      gaps = LanguageGap.find(in: payload)
    } else if let custom = customData(payload) {
      problems = check(
        custom, against: .marketerData, at: "\(label).u", pointer: pointer.appending(customDataPlace(payload)),
        validator)
    }
    let message: InboxMessage
    var ingestWarnings: [Warning]
    do {
      (message, ingestWarnings) = try Engine.ingest(
        payload: payload, context: IngestContext(id: sendRequest ? id?() : nil, now: now))
    } catch {
      return [
        Report(
          label: label, card: nil, refusal: error.reason, warnings: [], schemaProblems: problems, pointer: pointer,
          languageGaps: gaps)
      ]
    }
    // What is about the payload itself (schema, ingest, languages) is said once, in the first verdict.
    var reports: [Report] = []
    for host in PlatformVerdicts.hosts(for: message, attributes: attributes, narrowedTo: options.platform) {
      for locale in locales(message, host.attributes, options) {
        var attributes = host.attributes
        attributes.locale = locale
        var reasons: [ResolverReason] = []
        let (card, warnings): (Card, [Warning])
        if options.explains {
          (card, warnings, reasons) = Resolver.explain(message, attributes: attributes)
        } else {
          (card, warnings) = Resolver.resolve(message, attributes: attributes)
        }
        reports.append(
          Report(
            label: label, card: card, refusal: nil, warnings: ingestWarnings + warnings, schemaProblems: problems,
            pointer: pointer, platform: host.platform, locale: locale,
            languageGaps: gaps, reasons: reasons))
        (problems, ingestWarnings, gaps) = ([], [], [])
      }
    }
    return reports
  }

  /// The locales to resolve in: the one in force, or each language the title or body is written in.
  private static func locales(_ message: InboxMessage, _ attributes: Attributes, _ options: Options) -> [String?] {
    guard options.everyLocale else { return [attributes.locale] }
    var codes: [String] = []
    var seen = Set<LanguageTag?>()
    for code in (message.localizedTitle?.codes ?? []) + (message.localizedBody?.codes ?? [])
    where seen.insert(LanguageTag(code)).inserted {
      codes.append(code)
    }
    return codes.isEmpty ? [attributes.locale] : codes
  }

  /// The input schemas' validator, made once per process.
  private static let validator = SchemaValidator(document: Contract.document)

  private static func isSendRequest(_ payload: JSONValue) -> Bool {
    payload["inbox_id"] == nil && payload["pw_inbox"] == nil
  }

  /// The `u` of a push or backend message, when it is (or encodes) an object.
  private static func customData(_ payload: JSONValue) -> JSONValue? {
    var params = payload["action_params"] ?? payload
    if let text = params.stringValue { params = (try? JSONValue.parse(text)) ?? .null }
    var custom = params["u"]
    if let text = custom?.stringValue { custom = try? JSONValue.parse(text) }
    return custom?.objectValue == nil ? nil : custom
  }

  /// Where `customData` found `u` (a pointer into a string that encodes JSON stops at the string).
  private static func customDataPlace(_ payload: JSONValue) -> JSONPointer {
    JSONPointer(payload["action_params"] == nil ? ["u"] : ["action_params", "u"])
  }

  /// Every break of `shape`, up to a payload's share: a payload of thousands of broken buttons
  /// tells its first hundred.
  private static func check(
    _ value: JSONValue, against shape: Shape, at path: String, pointer: JSONPointer, _ validator: SchemaValidator
  ) -> [SchemaViolation] {
    validator.violations(of: value, against: shape.schema, at: path, pointer: pointer, limit: 100)
  }

  /// The input shapes a payload is checked against, each a `$ref` made once, not per payload.
  private enum Shape {
    case sendRequestNotification, marketerData

    var schema: JSONValue {
      switch self {
      case .sendRequestNotification: Self.sendRequestNotificationSchema
      case .marketerData: Self.marketerDataSchema
      }
    }

    private static let sendRequestNotificationSchema: JSONValue = [
      "$ref": "#/components/schemas/SendRequestNotification"
    ]
    private static let marketerDataSchema: JSONValue = ["$ref": "#/components/schemas/MarketerData"]
  }
}

extension Inbox {
  /// Lints a payload as `inbox-rpc lint` does, under the attributes in force with `partial` merged
  /// over them, at `now` (default: the inbox's clock). Stores nothing.
  public func lint(
    _ payload: JSONValue, attributes partial: JSONValue? = nil, now: Int64? = nil,
    options: PayloadLint.Options = PayloadLint.Options()
  ) throws -> [PayloadLint.Report] {
    PayloadLint.lint(payload, attributes: try attributes(merging: partial), now: now ?? clock.now, options: options)
  }
}
