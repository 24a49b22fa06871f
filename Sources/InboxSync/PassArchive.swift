internal import CMinizip
import JSON
import Posix

/// What makes a downloaded file an Apple Wallet pass, as far as a server can tell without Apple's
/// keys: a zip archive holding a `pass.json` that is a JSON object. The archive is read by zlib's
/// minizip (`CMinizip`); `pass.json` is inflated to at most `maxPassJSONBytes`, so an archive built
/// to inflate without bound (a zip bomb) is refused after that many bytes.
public enum PassArchive {
  /// Apple's pass.json files are a few kilobytes; a megabyte is far past any real one.
  public static let maxPassJSONBytes = 1 << 20

  /// Nil when the file at `path` is a pass, else why it is not.
  public static func problem(at path: String) -> String? {
    var buffer = [UInt8](repeating: 0, count: maxPassJSONBytes)
    var length = 0
    var why: UnsafePointer<CChar>? = nil
    let status = FileName.withCString(path) { name in
      buffer.withUnsafeMutableBufferPointer {
        cminizip_read_member(name, "pass.json", $0.baseAddress, $0.count, &length, &why)
      }
    }
    switch status {
    case CMINIZIP_OK: break
    case CMINIZIP_NO_LIBRARY: return "libminizip cannot be loaded to open it: \(why.map { String(cString: $0) } ?? "")"
    case CMINIZIP_NOT_A_ZIP: return "it is not a zip archive"
    case CMINIZIP_NO_MEMBER: return "the archive holds no pass.json"
    case CMINIZIP_TOO_LARGE: return "its pass.json inflates to more than \(maxPassJSONBytes) bytes"
    default: return "its pass.json is damaged (it does not inflate, or its CRC does not match)"
    }
    guard case .object? = try? JSONValue.parse(bytes: buffer[..<length], options: JSONReadOptions(maxDepth: 64))
    else { return "its pass.json is not a JSON object" }
    return nil
  }
}
