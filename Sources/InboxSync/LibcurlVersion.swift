internal import CCurl

/// Why libcurl is not there: a server without it serves everything but sync.
public struct LibcurlMissing: Error, CustomStringConvertible {
  public var description: String
}

extension HTTPBackend {
  /// The version of the libcurl `library` names, loaded as the first sync loads it, or why it cannot
  /// be loaded: `--version` tells what a sync would run with.
  public static func libcurlVersion(library: String = HTTPBackend.libcurl) -> Result<String, LibcurlMissing> {
    if let failure = ccurl_load(library) { return .failure(LibcurlMissing(description: String(cString: failure))) }
    guard let version = ccurl_version() else { return .failure(LibcurlMissing(description: "libcurl has no version")) }
    return .success(String(cString: version))
  }
}
