import InboxSync

/// What downloads a wallet pass and where it is kept, made from the inbox's options: the sync's
/// timeout, CA file, proxy and libcurl, the pass options' directory and size cap. Off (every
/// download refused, `PassFailure.disabled`) in a sandboxed replay, which acts for no one, and
/// where the user has no cache directory.
struct WalletPasses: Sendable {
  private let downloader: PassDownloader?
  private let cache: PassCache?
  private let off: String

  init(options: InboxOptions) {
    if options.sync.confinedTo != nil {
      (downloader, cache, off) = (nil, nil, "a replay downloads no wallet pass: it acts for no one")
      return
    }
    guard let directory = options.passes.cacheDirectory else {
      (downloader, cache, off) = (nil, nil, "no cache directory to keep passes in: set XDG_CACHE_HOME or HOME")
      return
    }
    downloader = PassDownloader(
      timeout: options.sync.timeout, userAgent: "\(ServerInfo.name)/\(ServerInfo.version)",
      caFile: options.sync.caFile, proxy: options.sync.proxy, library: options.sync.libcurl,
      maxBytes: options.passes.maxBytes)
    cache = PassCache(directory: directory)
    off = ""
  }

  /// Downloads the pass at `url`, checks it and keeps it.
  func fetch(
    _ url: String, isCancelled: @escaping @Sendable () -> Bool, received: @escaping (Int, Int?) -> Void
  ) throws(PassFailure) -> (PassCache.Kept, PassDownloader.Download) {
    guard let downloader, let cache else { throw PassFailure(.disabled, off) }
    try cache.prepareDirectory()
    var download = try downloader.download(url, isCancelled: isCancelled, received: received)
    let bytes = download.bytes
    download.bytes = []
    return (try cache.keep(bytes), download)
  }
}
