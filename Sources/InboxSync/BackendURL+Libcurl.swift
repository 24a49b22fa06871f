internal import CCurl

extension BackendURL {
  /// This URL, once libcurl's own URL parser (the one a transfer uses) has read it too, so a URL
  /// accepted when it is set is one every sync can call. Loads libcurl (`library`) for it, which is
  /// why it runs where a URL is given (a flag, the environment, `config.set`), not at every start.
  /// Where libcurl cannot be loaded, the URL is kept on this type's own checks alone: syncs then
  /// fail for want of libcurl anyway.
  public func checkedByLibcurl(library: String) throws(Invalid) -> BackendURL {
    guard ccurl_load(library) == nil else { return self }
    var words = [CChar](repeating: 0, count: 256)
    let code = ccurl_url_check(endpoint("getInboxMessages"), &words, words.count)
    guard code > 0 else { return self }
    let reason = String(decoding: words.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    throw Invalid(reason: "the backend URL \"\(string)\" cannot be used by libcurl: \(reason)")
  }
}
