import InboxCore
import JSON
import JSONSchema

/// Contract testing from a shell: checks what a marketer wrote against the input schemas in
/// Schemas/ (SendRequestNotification, MarketerData) and the engine's rules, and says what each
/// card will become, with every warning (`inbox-rpc lint`).
public enum PayloadLint {
  /// What one notification or payload becomes.
  public struct Report: Sendable {
    /// Where it was in the file: `notifications[2]`, or `payload`.
    public var label: String
    /// The card, when the payload is an inbox message.
    public var card: Card?
    /// Why it is not an inbox message.
    public var refusal: String?
    public var warnings: [Warning]
    /// Breaks of the input schema, which the engine may tolerate but a marketer should fix.
    public var schemaProblems: [SchemaViolation]
    /// Where the payload is in the file's JSON (each schema problem has its own pointer).
    public var pointer = JSONPointer()

    public var isClean: Bool { refusal == nil && warnings.isEmpty && schemaProblems.isEmpty }
  }

  /// Lints a file's JSON: a createMessage request, one notification object, an array of them, a push
  /// payload or a backend inbox message. `now` is the send time used for dates.
  public static func lint(_ value: JSONValue, attributes: Attributes = Attributes(), now: Int64) -> [Report] {
    if let notifications = value["request"]?["notifications"]?.arrayValue {
      return notifications.enumerated().map { index, item in
        report(
          item, label: "request.notifications[\(index)]", at: JSONPointer(["request", "notifications", "\(index)"]),
          attributes: attributes, now: now)
      }
    }
    if let items = value.arrayValue {
      return items.enumerated().map { index, item in
        report(item, label: "[\(index)]", at: JSONPointer(["\(index)"]), attributes: attributes, now: now)
      }
    }
    return [report(value, label: "payload", at: JSONPointer(), attributes: attributes, now: now)]
  }

  private static func report(
    _ payload: JSONValue, label: String, at pointer: JSONPointer, attributes: Attributes, now: Int64
  ) -> Report {
    var problems: [SchemaViolation] = []
    if isSendRequest(payload),
      let found = check(payload, against: "SendRequestNotification", at: label, pointer: pointer)
    {
      problems.append(found)
    } else if let custom = customData(payload),
      let found = check(
        custom, against: "MarketerData", at: "\(label).u", pointer: pointer.appending(customDataPlace(payload)))
    {
      problems.append(found)
    }
    do {
      let resolution = try Engine.resolve(
        payload: payload, context: IngestContext(id: nil, now: now), attributes: attributes)
      return Report(
        label: label, card: resolution.card, refusal: nil, warnings: resolution.warnings, schemaProblems: problems,
        pointer: pointer)
    } catch {
      return Report(
        label: label, card: nil, refusal: error.reason, warnings: [], schemaProblems: problems, pointer: pointer)
    }
  }

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

  private static func check(_ value: JSONValue, against shape: String, at path: String, pointer: JSONPointer)
    -> SchemaViolation?
  {
    SchemaValidator(document: Contract.document).violation(
      of: value, against: ["$ref": .string("#/components/schemas/\(shape)")], at: path, pointer: pointer)
  }
}

extension Inbox {
  /// Lints a payload as `inbox-rpc lint` does, under the attributes in force with `partial` merged
  /// over them, at `now` (default: the inbox's clock). Stores nothing.
  public func lint(_ payload: JSONValue, attributes partial: JSONValue? = nil, now: Int64? = nil) throws
    -> [PayloadLint.Report]
  {
    PayloadLint.lint(payload, attributes: try attributes(merging: partial), now: now ?? clock.now)
  }
}
