import InboxContract
import JSON
import JSONRPC

/// `rpc.ping` -> `"pong"`: the cheapest round trip, for liveness checks and benchmarks.
enum RPCPing: RPCMethod {
  static let name = "rpc.ping"

  static func handle(_ params: NoParams, _ request: RequestContext, _ server: ServerState) throws -> JSONValue {
    "pong"
  }

  /// Any params or none, so there is nothing to check.
  static func method(_ server: ServerState) -> Method {
    Method(name) { _ in "pong" }
  }
}
