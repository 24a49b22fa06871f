import CJansson
import JSON
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Counts jansson's allocations through its allocator hooks: after parsing and writing, every
/// block jansson allocated has been freed, so every reference was released (a double release
/// would crash instead). Other suites use jansson on other threads meanwhile, so only blocks
/// allocated and freed on this test's thread are counted.
private let liveBlocks = Atomic<Int>(0)
private let countedThread = Mutex<pthread_t?>(nil)

private func onCountedThread() -> Bool {
  countedThread.withLock { thread in thread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
}

@Suite(.serialized) struct ReferenceCountTests {
  @Test func parsingAndWritingReleaseEveryReference() throws {
    countedThread.withLock { $0 = pthread_self() }
    json_set_alloc_funcs(
      { size in
        if onCountedThread() { liveBlocks.add(1, ordering: .relaxed) }
        return malloc(size)
      },
      { pointer in
        if pointer != nil, onCountedThread() { liveBlocks.subtract(1, ordering: .relaxed) }
        free(pointer)
      })
    defer {
      json_set_alloc_funcs(malloc, free)
      countedThread.withLock { $0 = nil }
    }
    let before = liveBlocks.load(ordering: .relaxed)
    let text = #"{"a":[1,2.5,"x",{"b":null,"c":[true,false]}],"d":"é\u0000","e":9223372036854775807}"#
    for _ in 0..<100 {
      let value = try JSONValue.parse(text)
      _ = value.serialized()
      _ = value.serialized(terminatedBy: 0x0A)
      _ = try? JSONValue.parse("{\"broken\": [1, 2")
      _ = try? JSONValue.parse("{\"dup\": 1, \"dup\": 2}")
    }
    let big = JSONValue.array(Array(repeating: .string(String(repeating: "x", count: 100)), count: 100))
    _ = big.serialized()
    #expect(liveBlocks.load(ordering: .relaxed) == before)
    #expect(before == 0)
  }
}
