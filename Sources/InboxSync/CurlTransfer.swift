internal import CCurl

/// One HTTP POST through libcurl's easy interface: the only code that sees a `CURL *`.
///
/// Each transfer owns its handle from `curl_easy_init` to `curl_easy_cleanup` and runs on the
/// calling thread. Redirects are not followed (the `Authorization` header must not travel to
/// another host), only `http` and `https` are allowed, and signals are off (`CURLOPT_NOSIGNAL`), as
/// libcurl requires for timeouts in a multi-threaded program. The progress callback polls
/// `isCancelled`, so a cancelled sync aborts a transfer within a few milliseconds.
struct CurlTransfer {
  struct Request {
    var url: String
    var headers: [String]
    var body: [UInt8]
    /// Seconds allowed to connect, and for the whole transfer.
    var connectTimeout: Double
    var timeout: Double
    var maxReplyBytes: Int
    var userAgent: String
  }

  struct Reply {
    var httpStatus: Int
    var body: [UInt8]
    /// The `Location` of a 3xx reply.
    var redirectURL: String?
  }

  enum Failure: Error {
    /// libcurl's code and its explanation (never a header: the token stays out).
    case transport(code: Int32, reason: String)
    case cancelled
    case tooLarge(limit: Int)
  }

  /// libcurl's global state, set up once before the first handle (thread-safe lazy initialiser).
  private static let globalInit: CURLcode = ccurl_global_init()

  static func perform(_ request: Request, isCancelled: @escaping @Sendable () -> Bool) throws(Failure) -> Reply {
    guard globalInit == CURLE_OK else {
      throw .transport(code: Int32(globalInit.rawValue), reason: "libcurl could not be initialised")
    }
    guard let handle = curl_easy_init() else {
      throw .transport(code: Int32(CURLE_FAILED_INIT.rawValue), reason: "libcurl could not make a handle")
    }
    defer { curl_easy_cleanup(handle) }

    var headerList: UnsafeMutablePointer<curl_slist>?
    for header in request.headers {
      guard let appended = curl_slist_append(headerList, header) else {
        curl_slist_free_all(headerList)
        throw .transport(code: Int32(CURLE_OUT_OF_MEMORY.rawValue), reason: "out of memory building headers")
      }
      headerList = appended
    }
    defer { curl_slist_free_all(headerList) }

    let state = TransferState(limit: request.maxReplyBytes, isCancelled: isCancelled)
    let context = Unmanaged.passUnretained(state).toOpaque()
    var errorBuffer = [CChar](repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)

    let code: CURLcode = errorBuffer.withUnsafeMutableBufferPointer { errorText in
      // Options that take a string copy it (libcurl >= 7.17), so these temporaries may go.
      var setup: [CURLcode] = [
        ccurl_setopt_string(handle, CURLOPT_URL, request.url),
        ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
        ccurl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
        ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
        ccurl_setopt_long(handle, CURLOPT_POST, 1),
        ccurl_setopt_post_size(handle, curl_off_t(request.body.count)),
        ccurl_setopt_headers(handle, headerList),
        ccurl_setopt_string(handle, CURLOPT_USERAGENT, request.userAgent),
        ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT_MS, milliseconds(request.connectTimeout)),
        ccurl_setopt_long(handle, CURLOPT_TIMEOUT_MS, milliseconds(request.timeout)),
        ccurl_setopt_write_function(handle, writeCallback),
        ccurl_setopt_pointer(handle, CURLOPT_WRITEDATA, context),
        ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0),
        ccurl_setopt_progress_function(handle, progressCallback),
        ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, context),
        ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorText.baseAddress),
      ]
      // COPYPOSTFIELDS copies the body (its size was set first), so no pointer outlives this call.
      setup.append(
        request.body.withUnsafeBufferPointer { body in
          body.withMemoryRebound(to: CChar.self) { ccurl_setopt_string(handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
        })
      if let failed = setup.first(where: { $0 != CURLE_OK }) { return failed }
      return withExtendedLifetime(state) { curl_easy_perform(handle) }
    }

    switch code {
    case CURLE_OK:
      break
    case CURLE_ABORTED_BY_CALLBACK:
      throw .cancelled
    case CURLE_WRITE_ERROR where state.overflowed:
      throw .tooLarge(limit: request.maxReplyBytes)
    default:
      let detail = String(decoding: errorBuffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let reason = detail.isEmpty ? String(cString: curl_easy_strerror(code)) : detail
      throw .transport(code: Int32(code.rawValue), reason: reason)
    }

    var status = 0
    ccurl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    var redirect: UnsafeMutablePointer<CChar>?
    ccurl_getinfo_string(handle, CURLINFO_REDIRECT_URL, &redirect)
    return Reply(httpStatus: status, body: state.body, redirectURL: redirect.map { String(cString: $0) })
  }

  /// libcurl wants whole milliseconds; at least 1 (0 would mean "no timeout").
  private static func milliseconds(_ seconds: Double) -> Int {
    max(1, Int((seconds * 1000).rounded()))
  }
}

/// What the callbacks share with `perform`: the reply so far and the cancellation check.
///
/// Touched only on the thread running `curl_easy_perform` (libcurl calls back on it), so it needs
/// no lock; `perform` reads it after the transfer has ended.
private final class TransferState {
  var body: [UInt8] = []
  var overflowed = false
  let limit: Int
  let isCancelled: @Sendable () -> Bool

  init(limit: Int, isCancelled: @escaping @Sendable () -> Bool) {
    self.limit = limit
    self.isCancelled = isCancelled
  }
}

/// Appends received bytes; returning less than given makes libcurl stop with CURLE_WRITE_ERROR.
private let writeCallback: ccurl_write_callback = { data, size, count, context in
  guard let data, let context else { return 0 }
  let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
  let length = size * count
  if state.body.count + length > state.limit {
    state.overflowed = true
    return 0
  }
  data.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
    state.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: length))
  }
  return length
}

/// Called often during a transfer (also while it waits to connect); non-zero aborts it.
private let progressCallback: ccurl_progress_callback = { context, _, _, _, _ in
  guard let context else { return 0 }
  let state = Unmanaged<TransferState>.fromOpaque(context).takeUnretainedValue()
  return state.isCancelled() ? 1 : 0
}
