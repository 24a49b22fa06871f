import InboxApp
import InboxContract
import JSON
import JSONRPC

/// `rpc.discover` -> the OpenRPC document kept in Schemas/openrpc.json, embedded at build time.
enum RPCDiscover: RPCMethod {
  static let name = "rpc.discover"

  static func handle(_ params: NoParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    Contract.document
  }
}
