import ComposableCore
import Foundation
import FoundationNetworking
import Testing

@testable import NetworkWorker

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
    (.unsupportedURL, .connection),
    (.dataLengthExceedsMaximum, .decoding),
    (.unknown, .connection),
  ])
  func eachURLErrorHasAKind(_ code: URLError.Code, _ kind: EffectFailure.Kind) {
    #expect(NetworkFailure.classify(code).0 == kind)
  }

  @Test func theMessageNamesMethodURLWithoutQueryAndReason() {
    let request = HTTPRequest(method: "POST", url: "https://user:pw@api.example.com/v1/search?api_key=SECRET&q=cats")
    let failure = NetworkFailure.failure(
      for: URLError(.cannotConnectToHost), method: request.method, url: request.url, displayURL: request.displayURL)
    #expect(failure.kind == .connection)
    #expect(
      failure.message
        == "POST https://api.example.com/v1/search?…: could not connect to the server (connection refused or unreachable) (URLError -1004)"
    )
    #expect(!failure.message.contains("SECRET") && !failure.message.contains("pw"))
  }

  /// libcurl's sentence is kept, and a quote of the URL loses its query.
  @Test func libcurlsOwnWordsAreAddedWithoutTheQuery() {
    let request = HTTPRequest(url: "https://api.example.com/v1?api_key=SECRET")
    let error = URLError(
      .unknown,
      userInfo: [NSLocalizedDescriptionKey: "SSL certificate problem: self-signed certificate for \(request.url)"])
    let failure = NetworkFailure.failure(
      for: error, method: "GET", url: request.url, displayURL: request.displayURL)
    #expect(failure.kind == .connection)
    #expect(
      failure.message
        == "GET https://api.example.com/v1?…: the transfer failed (SSL certificate problem: self-signed certificate for https://api.example.com/v1?…; URLError -1)"
    )
  }

  @Test func errorsThatAreNotURLErrorsAreConnectionFailures() {
    struct Odd: Error {}
    let failure = NetworkFailure.failure(for: Odd(), method: "GET", url: "http://h/", displayURL: "http://h/")
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
