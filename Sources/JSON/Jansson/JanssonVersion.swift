internal import CJansson

extension JSONValue {
  /// The jansson this process loaded, as the library reports itself (not the header built against),
  /// so `--version` tells which one ran.
  public static var janssonVersion: String { String(cString: jansson_version_str()) }
}
