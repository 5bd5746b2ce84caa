extension FakeSeedAPI {
  /// A failure to inject on a route, set with ``FakeSeedAPI/setFault(_:for:times:)``.
  public enum Fault: Hashable, Sendable, CustomStringConvertible {
    /// Answer this status, with its reason phrase as a text body, instead of the route's answer.
    case status(Int)
    /// Answer as usual, this much later (sooner if the client gives up first).
    case delay(Duration)
    /// Never answer: hold the request until the server stops or the client
    /// gives up (a timeout or a cancellation).
    case hang
    /// Answer 200 with a body that is not the route's shape: truncated JSON.
    case malformedBody

    public var description: String {
      switch self {
      case .status(let status): "status \(status)"
      case .delay(let delay): "delay \(delay)"
      case .hang: "hang"
      case .malformedBody: "malformed body"
      }
    }

    /// The answer `response` becomes under this fault.
    func apply(to response: @autoclosure () -> TestHTTPResponse) -> TestHTTPResponse {
      switch self {
      case .status(let status): .status(status)
      case .delay(let delay): response().delayed(by: delay)
      case .hang: .hang
      case .malformedBody: .json(#"{"truncated": ["#)
      }
    }
  }
}
