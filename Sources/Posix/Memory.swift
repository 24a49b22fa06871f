#if canImport(Glibc)
  import Glibc
#endif

/// The allocator's side of memory.
public enum Memory {
  #if canImport(Glibc)
    /// glibc's `int malloc_trim(size_t pad)`: declared in <malloc.h>, which the Glibc module leaves
    /// out, so it is looked up once by name, as the C declaration types it.
    private static let mallocTrim: (@convention(c) (Int) -> Int32)? = {
      guard let symbol = dlsym(nil, "malloc_trim") else { return nil }  // nil: RTLD_DEFAULT
      return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)
    }()
  #endif

  /// Gives freed heap memory back to the system (glibc keeps it for reuse otherwise), so a process
  /// that freed a large working set does not keep its peak size.
  public static func returnFreed() {
    #if canImport(Glibc)
      _ = mallocTrim?(0)
    #endif
  }
}
