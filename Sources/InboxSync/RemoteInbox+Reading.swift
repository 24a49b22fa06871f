import Dispatch
import InboxCore
import JSON

/// The engine's reading of a long list, on both cores: each message is read on its own by a pure
/// function, so the two halves of a sync's thousands of messages can be read side by side.
extension RemoteInbox {
  /// What the engine made of one listed item: the message with its warnings, or why it refused it.
  typealias Reading = Result<Read, IngestError>

  struct Read: Sendable {
    var message: InboxMessage
    var warnings: [Warning]
  }

  /// Lists shorter than this are read on the calling thread alone.
  static let itemsReadInHalves = 512

  /// The engine's reading of each item, in order; a long list in two halves side by side. Items
  /// marked in `skipping` are not read (their slot stays a failure); a cancel stops the reading
  /// between batches (the caller asks `isCancelled` again and discards what was read).
  static func read(
    _ items: [JSONValue], now: Int64, skipping: [Bool], isCancelled: @escaping @Sendable () -> Bool
  ) -> [Reading] {
    var readings = [Reading](repeating: .failure(.notAnInboxMessage(reason: "")), count: items.count)
    let halves = items.count >= itemsReadInHalves ? 2 : 1
    readings.withUnsafeMutableBufferPointer { readings in
      let slots = Slots(items: items, skipping: skipping, readings: readings, now: now, isCancelled: isCancelled)
      DispatchQueue.concurrentPerform(iterations: halves) { half in
        slots.read((items.count * half / halves)..<(items.count * (half + 1) / halves))
      }
    }
    return readings
  }

  /// Where the halves write: each only the offsets of its own range.
  private struct Slots: @unchecked Sendable {
    let items: [JSONValue]
    let skipping: [Bool]
    let readings: UnsafeMutableBufferPointer<Reading>
    let now: Int64
    let isCancelled: @Sendable () -> Bool

    /// Messages read between two questions to `isCancelled`.
    private static let itemsPerCheck = 1024

    func read(_ range: Range<Int>) {
      for offset in range where !skipping[offset] {
        if (offset - range.lowerBound) % Self.itemsPerCheck == Self.itemsPerCheck - 1, isCancelled() { return }
        var warnings: [Warning] = []
        do throws(IngestError) {
          let message = try InboxMessage.ingest(items[offset], context: IngestContext(now: now), warnings: &warnings)
          readings[offset] = .success(Read(message: message, warnings: warnings))
        } catch {
          readings[offset] = .failure(error)
        }
      }
    }
  }
}
