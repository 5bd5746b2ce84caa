/// The fake numbers API: numbersapi.com's `GET /{n}`, answered in plain text.
enum FakeNumbersAPI {
  /// The fact about `number`: a sentence that starts with the number, as
  /// numbersapi.com's do, and differs for every number.
  static func fact(about number: Int) -> String {
    "\(number) is \(number.isMultiple(of: 2) ? "an even" : "an odd") number, says the fake numbers API."
  }

  /// The answer to `GET /{segment}`: the fact for an integer, 404 otherwise.
  static func respond(toNumber segment: Substring) -> TestHTTPResponse {
    guard let number = Int(segment) else {
      return .text("Cannot find a number in \(segment).\n", status: 404)
    }
    return .text(fact(about: number))
  }
}
