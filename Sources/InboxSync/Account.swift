import JSON

/// Who a call is made as, and where it goes.
struct Account: Sendable {
  var settings: BackendSettings
  var baseURL: BackendURL
  /// The account in force (false: a retired one whose queued changes are still being sent).
  var isCurrent: Bool

  init(settings: BackendSettings, baseURL: BackendURL, isCurrent: Bool) {
    self.settings = settings
    self.baseURL = baseURL
    self.isCurrent = isCurrent
  }

  /// A retired account, from the description `Synchronizer.configure` stored; an http URL in it to
  /// another place than `clearText` (this run's) gives way to the application's default.
  init?(retired description: String, clearText: BackendURL?) {
    guard let json = try? JSONValue.parse(description), json["application"]?.stringValue != nil else { return nil }
    var settings = BackendSettings(json: json)
    settings.baseURL = settings.baseURL?.trusted(clearText: clearText)
    let saved = json["baseUrl"]?.stringValue.flatMap { try? BackendURL($0) }?.trusted(clearText: clearText)
    guard let url = saved ?? (try? settings.configuredBaseURL())
    else { return nil }
    self.init(settings: settings, baseURL: url, isCurrent: false)
  }

  /// `application`, `hwid`, `userId` (the hwid when no user id is set), `v`, `device_type`
  /// (docs/sync.md#the-backend-contract).
  func commonFields(version: String) -> JSONObject {
    [
      "application": .string(settings.application ?? ""), "hwid": .string(settings.hwid),
      "userId": .string(settings.userID ?? settings.hwid), "v": .string(version),
      "device_type": .int(settings.deviceType),
    ]
  }
}
