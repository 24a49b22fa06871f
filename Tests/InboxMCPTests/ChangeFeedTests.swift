import InboxApp
import JSON
import Synchronization
import Testing

@testable import InboxMCP

/// A use case's typed change becomes MCP's resource notifications, with no JSON in between; and
/// subscriptions are capped per session, their memory returned when they are dropped.
struct ChangeFeedTests {
  final class Sent: Sendable {
    let frames = Mutex<[String]>([])
    func send(_ method: String, _ params: JSONValue) {
      frames.withLock { $0.append("\(method) \(params["uri"]?.stringValue ?? "")") }
    }
  }

  @Test func aDismissalUpdatesTheSubscribedResourcesAndTheList() {
    let era = Era()
    era.markHandshake()
    let feed = ChangeFeed(era: era)
    feed.subscribe(ResourceURI.feed)
    feed.subscribe(ResourceURI.message("gone"))
    let sent = Sent()
    feed.publish(FeedChange(.dismissed, removed: ["gone"]), send: sent.send)
    #expect(
      sent.frames.withLock { $0 } == [
        "notifications/resources/list_changed ", "notifications/resources/updated inbox://feed",
        "notifications/resources/updated inbox://message/gone",
      ])
  }

  @Test func aReadChangesNoListAndReachesOnlyWhatWasSubscribed() {
    let era = Era()
    era.markHandshake()
    let feed = ChangeFeed(era: era)
    feed.subscribe(ResourceURI.counts)
    let sent = Sent()
    feed.publish(FeedChange(.read, updated: ["a", "b"]), send: sent.send)
    #expect(sent.frames.withLock { $0 } == ["notifications/resources/updated inbox://counts"])
  }

  @Test func subscriptionsPastTheCapAreRefusedAndTheirRoomIsReturned() {
    let feed = ChangeFeed(era: Era())
    let cap = ChangeFeed.maxSubscriptions
    for index in 0..<cap { #expect(feed.subscribe("inbox://message/m\(index)")) }
    #expect(!feed.subscribe("inbox://message/one-more"))
    #expect(feed.subscribe("inbox://message/m0"))  // already subscribed: still fine
    let full = feed.subscriptionCapacity
    for index in 0..<cap { feed.unsubscribe("inbox://message/m\(index)") }
    #expect(feed.subscriptionCapacity < full / 8)
    #expect(feed.subscribe("inbox://message/one-more"))
  }
}
