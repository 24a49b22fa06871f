import JSON
import JSONRPC

/// `rpc.discover` -> the OpenRPC document kept in Schemas/openrpc.json, embedded at build time.
enum RPCDiscover: RPCMethod {
  static let name = "rpc.discover"

  /// Parsed once, on first use; the file is part of the build, so a parse failure is a build defect.
  static let document: JSONValue = {
    do {
      return try JSONValue.parse(bytes: PackageResources.openrpc_json, options: JSONReadOptions(maxDepth: 256))
    } catch {
      fatalError("Schemas/openrpc.json is not valid JSON: \(error)")
    }
  }()

  static func handle(_ params: ValidParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    document
  }
}
