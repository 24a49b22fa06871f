import InboxSync
import JSON
import JSONRPC

/// `config.set {attributes?, backend?}`.
public struct ConfigSetParams: OperationParams, Hashable {
  /// An AttributesPatch, merged over the saved attributes.
  public var attributes: JSONValue?
  public var backend: BackendSettings.Patch?

  public init(_ params: ParamsReader) throws(RPCError) {
    attributes = params.value("attributes")
    backend = try BackendSettings.Patch(param: params.object("backend"))
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("attributes", attributes)
    out.set("backend", backend.map { .object($0.json) })
    return out.object
  }
}

/// `initialize {client?, platform?, capabilities?, attributes?, backend?}`.
public struct InitializeParams: OperationParams, Hashable {
  /// The host's `{name, version}`, kept as sent (only logged).
  public var client: JSONValue?
  public var platform: String?
  public var capabilities: JSONObject?
  public var attributes: JSONObject?
  public var backend: BackendSettings.Patch?
  /// Members other protocols' hosts send, read only to tell the host apart: MCP's revision
  /// (`protocolVersion`, when a string), and LSP's `processId` (null counts: LSP allows it).
  public var protocolVersion: String?
  public var processID: JSONValue?

  public init(_ params: ParamsReader) throws(RPCError) {
    protocolVersion = params.value("protocolVersion")?.stringValue
    processID = params.object["processId"]
    client = params.value("client")
    platform = try params.string("platform")
    capabilities = try params.object("capabilities")
    attributes = try params.object("attributes")
    backend = try BackendSettings.Patch(param: params.object("backend"))
  }

  /// The session's attributes: `attributes`, with `platform` and `capabilities.walletPasses` over them.
  public var sessionAttributes: JSONValue {
    var partial = attributes ?? [:]
    if let platform { partial["platform"] = .string(platform) }
    if let walletPasses = capabilities?["walletPasses"] { partial["walletPasses"] = walletPasses }
    return .object(partial)
  }

  public var json: JSONObject {
    var out = ParamsWriter()
    out.set("client", client)
    out.set("platform", platform.map(JSONValue.string))
    out.set("capabilities", capabilities.map(JSONValue.object))
    out.set("attributes", attributes.map(JSONValue.object))
    out.set("backend", backend.map { .object($0.json) })
    out.set("protocolVersion", protocolVersion.map(JSONValue.string))
    out.set("processId", processID)
    return out.object
  }
}
