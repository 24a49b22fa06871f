import Dispatch
import JSON
import JSONRPC
import Posix

/// The example methods of the JSON-RPC 2.0 specification (§7) and a few test helpers, registered
/// only with `--test-methods` so conformance suites can run against the real transport.
enum ConformanceMethods {
  static let all: [Method] = [
    Method("subtract") { request in
      let (minuend, subtrahend): (JSONValue?, JSONValue?) =
        switch request.params.raw {
        case .array(let items)?: (items.first, items.dropFirst().first)
        default: (try request.params.value("minuend"), try request.params.value("subtrahend"))
        }
      guard let minuend = minuend?.intValue, let subtrahend = subtrahend?.intValue else {
        throw RPCError.invalidParams("params", "two integers expected")
      }
      let (difference, overflow) = minuend.subtractingReportingOverflow(subtrahend)
      if overflow { throw RPCError.invalidParams("params", "the difference does not fit in 64 bits") }
      return .int(difference)
    },
    Method("sum") { request in
      guard case .array(let items)? = request.params.raw else {
        throw RPCError.invalidParams("params", "an array of integers expected")
      }
      var total: Int64 = 0
      for item in items {
        guard let number = item.intValue else {
          throw RPCError.invalidParams("params", "an array of integers expected")
        }
        let (sum, overflow) = total.addingReportingOverflow(number)
        if overflow { throw RPCError.invalidParams("params", "the sum does not fit in 64 bits") }
        total = sum
      }
      return .int(total)
    },
    Method("update") { _ in .null },
    Method("notify_hello") { _ in .null },
    Method("notify_sum") { _ in .null },
    Method("get_data") { _ in ["hello", 5] },
    Method("test.echo") { request in try request.params.value("value") ?? .null },
    // Holds a background slot until the time is up or a cancel comes, whichever is first (the cancel
    // answers -32800); no thread sleeps meanwhile.
    Method(
      "test.sleep", placement: { _ in .background },
      deferred: { request, reply in
        let milliseconds: Int64
        do {
          milliseconds = try request.params.int("ms") ?? 0
          guard (0...600_000).contains(milliseconds) else { throw RPCError.invalidParams("ms", "must be 0 to 600000") }
        } catch {
          return reply.fail(error)
        }
        let slept: JSONValue = ["slept": .int(milliseconds)]
        request.cancellation.onCancel { reply.succeed(slept) }
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(Int(milliseconds))) { reply.succeed(slept) }
      }),
    Method("test.log") { request in
      let count = try request.params.int("count") ?? 1
      let size = Int(try request.params.int("bytes") ?? 80)
      guard (0...1_000_000).contains(count), (0...100_000).contains(size) else {
        throw RPCError.invalidParams("count", "count must be 0 to 1000000 and bytes 0 to 100000")
      }
      let filler = String(repeating: "x", count: size)
      for line in 0..<count { request.logger.warn("test.log line \(line) \(filler)") }
      return ["logged": .int(count)]
    },
  ]

  /// Helpers that reach the server's state: `test.clock {now}` pins the clock (null unpins it).
  static func stateful(_ server: ServerState) -> [Method] {
    [
      Method("test.clock") { request in
        server.inbox.clock.pin(try request.params.int("now"))
        return ["now": .int(server.inbox.clock.now)]
      }
    ]
  }
}
