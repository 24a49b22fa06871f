/// How hard a commit tries to reach the disk (`--durability`).
public enum StoreDurability: String, Sendable, CaseIterable {
  /// WAL with `synchronous=NORMAL`: a committed change survives a crash or `kill -9` of this
  /// process (the WAL is written before the commit returns); the last commits before a power loss
  /// or an OS crash may be rolled back, never corrupted.
  case normal
  /// `synchronous=FULL`: the WAL is synced to the disk at every commit, so commits also survive
  /// a power loss, at the cost of an fsync per change.
  case full
}
