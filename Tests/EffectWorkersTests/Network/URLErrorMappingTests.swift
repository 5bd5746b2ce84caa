import ComposableCore
import Foundation
import FoundationNetworking
import Testing

@testable import EffectWorkers

@Suite struct URLErrorMappingTests {
  @Test(arguments: [
    (URLError.Code.cannotConnectToHost, EffectFailure.Kind.connection),
    (.networkConnectionLost, .connection),
    (.cannotFindHost, .connection),
    (.dnsLookupFailed, .connection),
    (.notConnectedToInternet, .connection),
    (.secureConnectionFailed, .connection),
    (.serverCertificateUntrusted, .connection),
    (.serverCertificateHasBadDate, .connection),
    (.badServerResponse, .connection),
    (.httpTooManyRedirects, .connection),
    (.timedOut, .timeout),
    (.badURL, .invalidRequest),
    (.unsupportedURL, .invalidRequest),
    (.dataLengthExceedsMaximum, .decoding),
    (.unknown, .connection),
  ])
  func eachURLErrorHasAKind(_ code: URLError.Code, _ kind: EffectFailure.Kind) {
    #expect(NetworkFailure.classify(code).0 == kind)
  }

  @Test func theMessageNamesMethodURLWithoutQueryAndReason() {
    let request = HTTPRequest(method: "POST", url: "https://user:pw@api.example.com/v1/search?api_key=SECRET&q=cats")
    let failure = NetworkFailure.failure(
      for: URLError(.cannotConnectToHost), method: request.method, displayURL: request.displayURL)
    #expect(failure.kind == .connection)
    #expect(
      failure.message
        == "POST https://api.example.com/v1/search?…: could not connect to the server (connection refused or unreachable) (URLError -1004)")
    #expect(!failure.message.contains("SECRET") && !failure.message.contains("pw"))
  }

  @Test func errorsThatAreNotURLErrorsAreConnectionFailures() {
    struct Odd: Error {}
    let failure = NetworkFailure.failure(for: Odd(), method: "GET", displayURL: "http://h/")
    #expect(failure.kind == .connection)
    #expect(failure.message.hasPrefix("GET http://h/: "))
  }

  @Test func deadlineAndSizeFailures() {
    #expect(
      NetworkFailure.deadlineExpired(method: "GET", displayURL: "http://h/x?…", milliseconds: 250)
        == EffectFailure(.timeout, "GET http://h/x?…: no complete response within 250 ms"))
    let tooLarge = NetworkFailure.responseTooLarge(method: "GET", displayURL: "http://h/", limit: 1024)
    #expect(tooLarge.kind == .decoding)
    #expect(tooLarge.message.contains("exceeds the worker's limit of 1024 bytes"))
  }
}
