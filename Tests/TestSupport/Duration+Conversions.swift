import Dispatch

extension Duration {
  /// This duration in whole milliseconds, rounded up so a wait never ends
  /// early; saturates instead of overflowing.
  var roundedUpMilliseconds: Int64 {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1000)
    guard !overflow else { return seconds < 0 ? .min : .max }
    let (total, overflowAgain) = whole.addingReportingOverflow(
      (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    return overflowAgain ? .max : total
  }

  /// This duration for Dispatch, in nanoseconds; `.never` when too long to express.
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow, let nanoseconds = Int(exactly: whole + attoseconds / 1_000_000_000) else { return .never }
    return .nanoseconds(nanoseconds)
  }
}
