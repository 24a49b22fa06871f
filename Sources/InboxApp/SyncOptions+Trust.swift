import InboxSync

extension SyncOptions {
  /// A host's `backend` patch (`config.set`, `initialize`) as it may be applied. Its base URL must be
  /// one libcurl reads, and may be http only to the host and port the command line or environment
  /// gave: a setting saved here is read back from the store at the next start, so a store another
  /// program wrote to cannot send the token in clear to a listener of its choosing.
  func trusted(_ patch: BackendSettings.Patch) throws(BackendSettings.PatchError) -> BackendSettings.Patch {
    guard case .some(.some(let url)) = patch.baseURL else { return patch }
    guard url.trusted(clearText: clearTextBaseURL) != nil else {
      throw BackendSettings.PatchError(
        path: "backend.baseUrl",
        reason: "an http URL sends the API token in clear; it is taken only from --backend-url or "
          + "INBOX_RPC_BACKEND_URL, never from a saved setting; use https")
    }
    var checked = patch
    do {
      checked.baseURL = .some(try url.checkedByLibcurl(library: libcurl))
    } catch {
      throw BackendSettings.PatchError(path: "backend.baseUrl", reason: error.reason)
    }
    return checked
  }
}
