import JSON
import Posix

/// Which backend account the inbox belongs to, saved with the store (setting `backend`).
///
/// ```
/// {"baseUrl": "https://example.com/json/1.3/", "application": "XXXXX-XXXXX", "hwid": "5f0c…",
///  "userId": "user-1", "deviceType": 3}
/// ```
/// The API token is not part of it: it is never written to the store (see `APIToken`).
public struct BackendSettings: Sendable, Hashable {
  /// The configured base URL; nil means the default derived from `application`.
  public var baseURL: BackendURL?
  /// The Pushwoosh application code (`XXXXX-XXXXX`).
  public var application: String?
  /// The device's hardware id: generated once (a random UUID) and kept, unless configured.
  public var hwid: String
  /// The user id; nil sends the hwid as `userId`, as the web SDK does and the API docs ask.
  public var userID: String?
  /// `device_type` of every request (Pushwoosh's platform numbers: 1 iOS, 3 Android, 7 macOS, ...).
  public var deviceType: Int64

  /// Android's number: the default, since the API has none for Linux or a generic host.
  public static let defaultDeviceType: Int64 = 3

  public init(
    baseURL: BackendURL? = nil, application: String? = nil, hwid: String = BackendSettings.newHWID(),
    userID: String? = nil, deviceType: Int64 = BackendSettings.defaultDeviceType
  ) {
    self.baseURL = baseURL
    self.application = application
    self.hwid = hwid
    self.userID = userID
    self.deviceType = deviceType
  }

  /// A fresh random hardware id (32 lowercase hex digits).
  public static func newHWID() -> String {
    randomHex(bytes: 16)
  }

  /// The user as the backend knows it: the application and the user id (hwid when unset). A change of
  /// either starts another inbox (docs/sync.md#changing-the-account).
  public var identity: Identity { Identity(application: application, userID: userID ?? hwid) }

  /// The pair whose change means another user's inbox.
  public struct Identity: Sendable, Hashable {
    public var application: String?
    public var userID: String
  }

  /// The base URL calls go to before the backend names another: the configured one, else the
  /// Pushwoosh default for the application.
  public func configuredBaseURL() throws(SyncError) -> BackendURL {
    if let baseURL { return baseURL }
    guard let application else { throw .notConfigured(missing: ["application"]) }
    do {
      return try BackendURL.pushwooshDefault(application: application)
    } catch {
      throw .notConfigured(missing: ["baseUrl"])
    }
  }

  // MARK: - Patches

  /// Members to change; a member set to `.some(nil)` clears it (back to its default).
  public struct Patch: Sendable, Hashable {
    public var baseURL: BackendURL??
    public var application: String??
    public var hwid: String??
    public var userID: String??
    public var deviceType: Int64??

    public init(
      baseURL: BackendURL?? = nil, application: String?? = nil, hwid: String?? = nil, userID: String?? = nil,
      deviceType: Int64?? = nil
    ) {
      self.baseURL = baseURL
      self.application = application
      self.hwid = hwid
      self.userID = userID
      self.deviceType = deviceType
    }

    public var isEmpty: Bool {
      baseURL == nil && application == nil && hwid == nil && userID == nil && deviceType == nil
    }

    /// Reads `{baseUrl?, application?, hwid?, userId?, deviceType?}`; `null` clears a member.
    /// Throws `(path, reason)` for a member of the wrong type or an insecure URL.
    public init(json: JSONObject, path: String = "backend") throws(PatchError) {
      func text(_ key: String) throws(PatchError) -> String?? {
        guard let value = json[key] else { return nil }
        switch value {
        case .null: return .some(nil)
        case .string(let text):
          let trimmed = text.trimmingWhitespace()
          guard !trimmed.isEmpty else { return .some(nil) }
          guard trimmed.count <= 256,
            !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
          else {
            throw PatchError(
              path: "\(path).\(key)", reason: "must be at most 256 characters, without control characters")
          }
          return .some(trimmed)
        default:
          throw PatchError(path: "\(path).\(key)", reason: "expected a string or null, got \(value.typeName)")
        }
      }
      for key in json.keys where !Self.keys.contains(key) {
        throw PatchError(
          path: "\(path).\(key)", reason: "unknown member; expected \(Self.keys.joined(separator: ", "))")
      }
      application = try text("application")
      hwid = try text("hwid")
      userID = try text("userId")
      if let url = try text("baseUrl") {
        do {
          baseURL = .some(try url.map { text throws(BackendURL.Invalid) in try BackendURL(text) })
        } catch {
          throw PatchError(path: "\(path).baseUrl", reason: error.reason)
        }
      }
      if let value = json["deviceType"] {
        switch value {
        case .null: deviceType = .some(nil)
        case .int(let number) where number > 0 && number < 1000: deviceType = .some(number)
        default:
          throw PatchError(path: "\(path).deviceType", reason: "expected a positive integer or null")
        }
      }
    }

    static let keys = ["baseUrl", "application", "hwid", "userId", "deviceType"]
  }

  /// A member of a patch that cannot be applied: its JSON path and why.
  public struct PatchError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }

    public init(path: String, reason: String) {
      self.path = path
      self.reason = reason
    }
  }

  /// These settings with `patch` applied over them.
  public func applying(_ patch: Patch) -> BackendSettings {
    var result = self
    if let baseURL = patch.baseURL { result.baseURL = baseURL }
    if let application = patch.application { result.application = application }
    if let hwid = patch.hwid { result.hwid = hwid ?? BackendSettings.newHWID() }
    if let userID = patch.userID { result.userID = userID }
    if let deviceType = patch.deviceType { result.deviceType = deviceType ?? Self.defaultDeviceType }
    return result
  }

  // MARK: - JSON

  /// The stored form (unset members omitted).
  public var json: JSONValue {
    var object: JSONObject = ["hwid": .string(hwid), "deviceType": .int(deviceType)]
    if let baseURL { object["baseUrl"] = .string(baseURL.string) }
    if let application { object["application"] = .string(application) }
    if let userID { object["userId"] = .string(userID) }
    return .object(object)
  }

  /// Reads the stored form; a member that no longer reads (a URL saved by an older, laxer version) is
  /// dropped rather than stopping the server.
  public init(json: JSONValue?) {
    let object = json?.objectValue ?? [:]
    self.init(
      baseURL: object["baseUrl"]?.stringValue.flatMap { try? BackendURL($0) },
      application: object["application"]?.stringValue,
      hwid: object["hwid"]?.stringValue ?? BackendSettings.newHWID(),
      userID: object["userId"]?.stringValue,
      deviceType: object["deviceType"]?.intValue ?? Self.defaultDeviceType)
  }
}
