import JSON
import JSONRPC

/// Every use case both faces offer, by contract name: one list, so the JSON-RPC methods and the
/// MCP tools cannot drift.
public enum Operations {
  public static let all: [AnyOperation] = [
    ConfigGet.erased, ConfigSet.erased, FeedList.erased, FeedCountsMethod.erased, FeedMarkAllRead.erased,
    FeedDismissRead.erased, FeedDismissAll.erased, FeedSync.erased, MessageGet.erased, MessageTap.erased,
    ButtonTap.erased, SlideTap.erased, FeedSeen.erased, VideoPlay.erased, WalletDownload.erased,
    WalletReportMethod.erased, MessageDismiss.erased,
    MessageMarkRead.erased, MessageIngest.erased, MessageResolve.erased, MessageRender.erased,
    MessageExplain.erased, FeedChanges.erased, FeedMarkAllSeen.erased,
  ]

  private static let byName = Dictionary(uniqueKeysWithValues: all.map { ($0.name, $0) })

  public static func named(_ name: String) -> AnyOperation? { byName[name] }

  /// The typed params of every method of the contract that takes params, operations or not
  /// (`initialize` is the JSON-RPC face's own): for tests that read every example.
  public static let paramsTypes: [String: @Sendable (JSONObject) throws -> any OperationParams] = {
    var types = byName.mapValues(\.decode)
    types["initialize"] = { object in try InitializeParams(ParamsReader(object)) }
    for name in ["rpc.discover", "rpc.ping", "shutdown"] {
      types[name] = { object in try NoParams(ParamsReader(object)) }
    }
    return types
  }()
}
