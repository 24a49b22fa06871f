import InboxApp
import JSON
import JSONRPC

/// `video.play {id}` -> `{video, message}`: the player's descriptor; the message becomes read.
/// A card that does not render as a video is refused with `NotAVideoCard` (-32002).
enum VideoPlay: Operation {
  static let name = "video.play"
  /// A write: queued behind the writes before it, so waiting for another process's lock holds up no read.
  static let execution: Method.Execution = .write

  static func run(_ params: MessageID, _ context: OperationContext) throws -> JSONValue {
    let outcome = try context.inbox.playVideo(id: params.id)
    context.report(outcome.effects)
    return ["video": outcome.video.json(labels: outcome.card.labels), "message": outcome.cardJSON]
  }
}
