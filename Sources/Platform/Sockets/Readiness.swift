import Glibc

/// `poll(2)` for input, for threads that read several descriptors.
public enum Readiness {
  /// Which of `descriptors` can be read, or have hung up or failed, waiting
  /// up to `milliseconds` for one (0: not at all; -1: without limit); in the
  /// order given. An interrupted wait reports none.
  public static func readable(_ descriptors: [Int32], milliseconds: Int32) -> [Int32] {
    var polled = descriptors.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
    guard poll(&polled, nfds_t(polled.count), milliseconds) > 0 else { return [] }
    return polled.compactMap { $0.revents == 0 ? nil : $0.fd }
  }

  /// Whether `descriptor` can be read, has hung up or failed, waiting up to
  /// `milliseconds` (as ``readable(_:milliseconds:)``) for it.
  public static func readable(_ descriptor: Int32, milliseconds: Int32) -> Bool {
    var polled = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    return poll(&polled, 1, milliseconds) > 0
  }

  /// `poll`'s timeout for `deadline`, seen at `now`: whole milliseconds,
  /// rounded up so that the wait does not end just short of it; 0 once it
  /// has passed.
  public static func milliseconds(
    until deadline: ContinuousClock.Instant, now: ContinuousClock.Instant = .now
  ) -> Int32 {
    let (seconds, attoseconds) = (deadline - now).components
    guard seconds >= 0 && attoseconds >= 0 else { return 0 }
    return Int32(clamping: seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
  }
}
