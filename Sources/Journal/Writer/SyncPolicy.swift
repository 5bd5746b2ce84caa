/// When appended records are made durable with `fdatasync`.
///
/// Every policy survives a crash of the daemon itself (`kill -9`, a trap):
/// once ``JournalWriter/append(_:)`` returns, the batch is in the kernel's
/// page cache and the next start reads it. The policies differ in what a
/// crash of the *machine* (power loss, kernel panic) can lose:
///
/// - ``always``: `append` returns only after `fdatasync` of the batch, so
///   nothing that `append` returned for is lost. One sync covers the whole
///   batch (group commit), so under load many actions share one sync. The
///   daemon acknowledges and publishes a version only after its `append`
///   returns. This is the default, like Redis's `appendfsync always`.
/// - ``everySecond``: a background thread syncs what was written, once a
///   second. A machine crash loses the records appended since the start of
///   the last sync that completed: normally at most the last second, longer
///   if a sync is slow (a sync covers only what was written before it
///   began). Those versions may have been acknowledged and published.
/// - ``never``: no sync per append; the kernel writes dirty pages back on its
///   own schedule (`vm.dirty_expire_centisecs`, 30 s by default, or sooner
///   under memory pressure), and a machine crash can lose that much.
///
/// Under every policy, a segment is synced when it is closed at rotation and
/// when the writer is closed, and segment creation is synced with its
/// directory, so only the newest segment can ever end in a torn record.
public enum SyncPolicy: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
  case always
  case everySecond = "every-second"
  case never

  public var description: String { rawValue }
}
