/// A timer on the monotonic clock: fire once after a delay, or every interval.
public struct TimerRequest: Hashable, Sendable, Codable {
  /// Milliseconds until the (first) firing.
  public var milliseconds: Int
  /// Whether the timer fires again every `milliseconds` until cancelled.
  public var repeats: Bool

  public init(milliseconds: Int, repeats: Bool) {
    self.milliseconds = max(0, milliseconds)
    self.repeats = repeats
  }

  /// Fires once, `delay` from now.
  public static func after(_ delay: Duration) -> Self {
    Self(milliseconds: delay.wholeMilliseconds, repeats: false)
  }

  /// Fires every `interval`, first `interval` from now.
  public static func every(_ interval: Duration) -> Self {
    Self(milliseconds: max(1, interval.wholeMilliseconds), repeats: true)
  }

  /// The delay as a `Duration`.
  public var duration: Duration { .milliseconds(milliseconds) }
}

extension Duration {
  /// This duration in whole milliseconds, rounded down.
  public var wholeMilliseconds: Int {
    let (seconds, attoseconds) = components
    return Int(seconds) * 1000 + Int(attoseconds / 1_000_000_000_000_000)
  }
}
