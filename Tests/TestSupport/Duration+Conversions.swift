import Dispatch

extension Duration {
  /// This duration for Dispatch, in nanoseconds; `.never` when too long to express.
  var dispatchInterval: DispatchTimeInterval {
    let (seconds, attoseconds) = components
    let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
    guard !overflow, let nanoseconds = Int(exactly: whole + attoseconds / 1_000_000_000) else { return .never }
    return .nanoseconds(nanoseconds)
  }
}
