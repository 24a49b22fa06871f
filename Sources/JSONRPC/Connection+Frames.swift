import JSON

/// Reading: each frame the reader splits off parsed into messages, or answered with the error
/// that says why it cannot be (too large, a bad header, not JSON, an empty or oversized batch).
extension Connection {
  func handle(_ event: FrameReader.Event) {
    switch event {
    case .frame(let bytes):
      handleFrame(bytes)
    case .tooLarge(let limit, let size):
      var data: JSONObject = ["limit": .int(Int64(limit))]
      if let size { data["size"] = .int(Int64(size)) }
      let reason = "frame larger than the limit of \(limit) bytes (--max-frame-bytes)"
      writer.send(Response.error(id: .null, .invalidRequest(reason, data: data)))
      configuration.onTooLarge?(limit, size, reader.skippedHead)
    case .badHeader(let reason):
      writer.send(Response.error(id: .null, RPCError(.parseError, "Parse error", data: ["reason": .string(reason)])))
    }
  }

  private func handleFrame(_ bytes: [UInt8]) {
    let value: JSONValue
    do {
      value = try JSONValue.parse(bytes: bytes, options: configuration.json)
    } catch {
      configuration.tracer?.record(.incoming, bytes)
      writer.send(Response.error(id: .null, Self.rpcError(for: error, depthLimit: configuration.json.maxDepth)))
      return
    }
    // Recorded before anything it causes is written.
    configuration.tracer?.record(.incoming, bytes, isJSON: true)
    guard case .array(let items) = value else {
      dispatcher.dispatch([Incoming(value)], asBatch: false, inputBytes: bytes.count)
      return
    }
    if items.isEmpty {
      writer.send(Response.error(id: .null, .invalidRequest("empty batch")))
    } else if items.count > configuration.maxBatchSize {
      let data: JSONObject = ["limit": .int(Int64(configuration.maxBatchSize)), "size": .int(Int64(items.count))]
      let reason = "batch too large: \(items.count) requests, limit \(configuration.maxBatchSize) (--max-batch)"
      writer.send(Response.error(id: .null, .invalidRequest(reason, data: data)))
    } else {
      dispatcher.dispatch(items.map(Incoming.init), asBatch: true, inputBytes: bytes.count)
    }
  }

  /// -32700 for text that is not JSON; -32600 for JSON nested deeper than the limit.
  static func rpcError(for error: JSONError, depthLimit: Int) -> RPCError {
    if error.kind == .tooDeep {
      return .invalidRequest(
        "nesting deeper than \(depthLimit) levels (--max-depth)", data: ["limit": .int(Int64(depthLimit))])
    }
    var data: JSONObject = ["reason": .string(error.message), "kind": .string(error.kind.rawValue)]
    if error.position >= 0 {
      data["line"] = .int(Int64(error.line))
      data["column"] = .int(Int64(error.column))
      data["position"] = .int(Int64(error.position))
    }
    return RPCError(.parseError, "Parse error", data: .object(data))
  }
}
