internal import CCurl

#if canImport(Glibc)
  import Glibc
#endif

/// A finished libcurl transfer in the words of `SyncError`'s reasons: which peer failed and how,
/// named as a host and port (`cannot connect to host port 443: Connection refused`), with libcurl's
/// own words where ours would add nothing.
struct TransferOutcome {
  /// Nil when a reply arrived (whatever its status).
  let failure: HTTPTransfer.Failure?

  init(_ result: ccurl_result, target: TransferTarget, proxy: Proxy?, request: HTTPTransfer.Request) {
    let said = String(cString: result.error)
    // The peer a connect failed to: libcurl names it (the host, or the proxy unless no_proxy skipped it).
    let peer = Self.peer(in: said) ?? proxy?.hostAndPort ?? target.hostAndPort
    if let proxy, result.connect_status != 0, !(200..<300).contains(result.connect_status) {
      failure = .transport(
        reason: "\(proxy.description) refused the tunnel to \(target.hostAndPort): HTTP \(result.connect_status)")
      return
    }
    let reason: String
    switch result.outcome {
    case CCURL_REPLIED:
      failure = nil
      return
    case CCURL_TOO_LARGE:
      failure = .tooLarge(limit: request.maxReplyBytes)
      return
    case CCURL_RESOLVE: reason = "cannot resolve \(target.host): \(said)"
    case CCURL_RESOLVE_PROXY: reason = "cannot resolve \(proxy?.description ?? "the proxy"): \(said)"
    case CCURL_CONNECT where result.os_errno != 0:
      reason = "cannot connect to \(peer): \(String(cString: strerror(Int32(result.os_errno))))"
    case CCURL_TIMEOUT: reason = "timed out after \(Self.seconds(request.timeout)) s: \(said)"
    case CCURL_CERTIFICATE:
      // A chain that verified, with a certificate for another name: libcurl's own check says "subject name".
      let why = said.contains("subject name") ? "host name mismatch (\(said))" : said
      reason = "TLS: the certificate of \(target.hostAndPort) is not accepted: \(why)"
    case CCURL_TLS: reason = "TLS handshake with \(target.hostAndPort) failed: \(said)"
    case CCURL_CA_FILE:
      reason = "TLS: cannot load CA certificates from \(request.caFile ?? "the system's store"): \(said)"
    case CCURL_PROXY: reason = "\(proxy?.description ?? "the proxy") failed: \(said)"
    default: reason = "\(target.hostAndPort): \(said)"
    }
    failure = .transport(reason: reason)
  }

  /// `host port N` from libcurl's `Failed to connect to host port N after …`.
  private static func peer(in said: String) -> String? {
    guard let match = said.firstMatch(of: /connect to (\S+) port (\d+)/) else { return nil }
    return "\(match.1) port \(match.2)"
  }

  /// `0.5`, `30`: seconds as they were given.
  static func seconds(_ value: Double) -> String {
    value == value.rounded() && value < 1e9 ? String(Int(value)) : String(value)
  }
}
