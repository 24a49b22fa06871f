import CJansson
import JSON
import Synchronization
import Testing

#if canImport(Glibc)
  import Glibc
#endif

/// Counts jansson's allocations through its allocator hooks: after parsing and writing, every
/// block jansson allocated has been freed, so every reference was released (a double release
/// would crash instead).
private let liveBlocks = Atomic<Int>(0)

@Suite(.serialized) struct ReferenceCountTests {
  @Test func parsingAndWritingReleaseEveryReference() throws {
    json_set_alloc_funcs(
      { size in
        liveBlocks.add(1, ordering: .relaxed)
        return malloc(size)
      },
      { pointer in
        if pointer != nil { liveBlocks.subtract(1, ordering: .relaxed) }
        free(pointer)
      })
    defer { json_set_alloc_funcs(malloc, free) }
    let before = liveBlocks.load(ordering: .relaxed)
    let text = #"{"a":[1,2.5,"x",{"b":null,"c":[true,false]}],"d":"é\u0000","e":9223372036854775807}"#
    for _ in 0..<100 {
      let value = try JSONValue.parse(text)
      _ = value.serialized()
      _ = try? JSONValue.parse("{\"broken\": [1, 2")
      _ = try? JSONValue.parse("{\"dup\": 1, \"dup\": 2}")
    }
    #expect(liveBlocks.load(ordering: .relaxed) == before)
  }
}
