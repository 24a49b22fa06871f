#if canImport(Glibc)
  import Glibc

  // glibc's `int malloc_trim(size_t pad)`, declared in <malloc.h>, which the Glibc module leaves out.
  @_silgen_name("malloc_trim")
  private func glibcMallocTrim(_ pad: Int) -> Int32
#endif

/// The allocator's side of memory.
public enum Memory {
  /// Gives freed heap memory back to the system (glibc keeps it for reuse otherwise), so a process
  /// that freed a large working set does not keep its peak size.
  public static func returnFreed() {
    #if canImport(Glibc)
      _ = glibcMallocTrim(0)
    #endif
  }
}
