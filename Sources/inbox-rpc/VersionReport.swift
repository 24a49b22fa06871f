import InboxApp
import InboxStore
import InboxSync
import JSON

/// `inbox-rpc --version [--json]`: the release and the C libraries this process runs with, as they
/// report themselves once loaded, so a bug report says what ran. libcurl is loaded here as the first
/// sync would load it (`INBOX_RPC_LIBCURL` names another); without it everything but sync still works.
struct VersionReport {
  var sqlite = InboxStore.sqliteVersion
  var jansson = JSONValue.janssonVersion
  var libcurl: Result<String, LibcurlMissing>

  init(libcurl library: String) {
    libcurl = HTTPBackend.libcurlVersion(library: library)
  }

  /// `inbox-rpc 0.1.0` first (help2man and version probes read that line), then a library a line.
  var text: String {
    let curl: String
    switch libcurl {
    case .success(let version): curl = "libcurl \(version)"
    case .failure(let missing): curl = "libcurl not loaded (\(missing)): sync is unavailable"
    }
    return "\(ServerInfo.name) \(ServerInfo.version)\nSQLite \(sqlite)\njansson \(jansson)\n\(curl)\n"
  }

  /// `{name, version, protocolVersion, libraries: {sqlite, jansson, libcurl}}`; libcurl is null when it
  /// cannot be loaded, and `libcurlMissing` says why.
  var json: JSONValue {
    var members: [(String, JSONValue)] = [
      ("name", .string(ServerInfo.name)), ("version", .string(ServerInfo.version)),
      ("protocolVersion", .string(ServerInfo.protocolVersion)),
    ]
    let curl: JSONValue
    switch libcurl {
    case .success(let version): curl = .string(version)
    case .failure(let missing):
      curl = .null
      members.append(("libcurlMissing", .string(missing.description)))
    }
    members.append(("libraries", ["sqlite": .string(sqlite), "jansson": .string(jansson), "libcurl": curl]))
    return .object(JSONObject(members))
  }
}
