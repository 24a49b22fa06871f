import Testing

@testable import InboxMCP

/// Resource subscriptions: capped per session, and their memory returned when they are dropped.
struct ChangeFeedTests {
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
