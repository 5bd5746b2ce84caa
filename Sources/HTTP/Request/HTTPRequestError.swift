/// Why a request could not be read, with the status the server answers before
/// closing the connection.
public struct HTTPRequestError: Error, Equatable, Sendable {
  /// 400, 413, 431, 501 or 505.
  public var status: Int
  /// What was wrong, for the plain-text body of the answer.
  public var reason: String

  public init(_ status: Int, _ reason: String) {
    self.status = status
    self.reason = reason
  }
}
