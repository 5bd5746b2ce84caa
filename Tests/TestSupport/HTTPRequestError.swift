/// Why a request could not be read, with the status the server answers before
/// closing the connection.
struct HTTPRequestError: Error, Equatable {
  /// 400, 413, 431, 501 or 505.
  var status: Int
  /// What was wrong, for the plain-text body of the answer.
  var reason: String

  init(_ status: Int, _ reason: String) {
    self.status = status
    self.reason = reason
  }
}
