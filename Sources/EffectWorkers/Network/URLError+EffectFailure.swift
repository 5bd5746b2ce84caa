import EffectRequests
import Foundation
import FoundationNetworking

/// How a transfer's failure is told to the feature: the kind it can react
/// to, and a message naming the method, the URL without its query (which can
/// hold an API key), and the reason.
enum NetworkFailure {
  /// The failure for an error URLSession reported about a request for `url`.
  ///
  /// libcurl's own sentence (e.g. "SSL certificate problem: self-signed
  /// certificate"), which FoundationNetworking passes on as the localized
  /// description, is added when there is one: it often says more than the
  /// code. Should it quote `url`, the query is cut from the quote too.
  static func failure(for error: any Error, method: String, url: String, displayURL: String) -> EffectFailure {
    let subject = "\(method) \(displayURL)"
    guard let error = error as? URLError else {
      return EffectFailure(.connection, "\(subject): \(redacted("\(error)", url: url, displayURL: displayURL))")
    }
    let (kind, reason) = classify(error.code)
    var details = ["URLError \(error.code.rawValue)"]
    if let detail = error.userInfo[NSLocalizedDescriptionKey] as? String, !detail.isEmpty {
      details.insert(redacted(detail, url: url, displayURL: displayURL), at: 0)
    }
    return EffectFailure(kind, "\(subject): \(reason) (\(details.joined(separator: "; ")))")
  }

  /// `text` with every quote of `url` replaced by `displayURL`.
  private static func redacted(_ text: String, url: String, displayURL: String) -> String {
    guard !url.isEmpty, url != displayURL else { return text }
    return text.replacingOccurrences(of: url, with: displayURL)
  }

  /// The failure when the whole exchange took longer than its deadline.
  static func deadlineExpired(method: String, displayURL: String, milliseconds: Int) -> EffectFailure {
    EffectFailure(.timeout, "\(method) \(displayURL): no complete response within \(milliseconds) ms")
  }

  /// The failure when a response body exceeds the worker's limit.
  ///
  /// `EffectFailure.Kind` has no "too large" case, and adding one would break
  /// features that switch over every kind; `decoding` is the nearest: the
  /// reply could not be taken in as the feature expects it.
  static func responseTooLarge(method: String, displayURL: String, limit: Int) -> EffectFailure {
    EffectFailure(
      .decoding,
      "\(method) \(displayURL): the response body exceeds the worker's limit of \(limit) bytes (--max-response-bytes); the transfer was aborted"
    )
  }

  /// The kind and a reason for each URLError code.
  static func classify(_ code: URLError.Code) -> (EffectFailure.Kind, String) {
    switch code {
    case .timedOut:
      (.timeout, "the server did not answer in time")
    case .badURL:
      (.invalidRequest, "the URL is not valid")
    case .unsupportedURL:
      // The request's scheme was checked before it was sent: libcurl reports
      // this when the server's answer is not HTTP/1.x (HTTP/0.9, another
      // protocol) or a redirect leads to another scheme.
      (.connection, "the server's answer is not HTTP, or it redirected to a URL that is not http or https")
    case .cannotFindHost, .dnsLookupFailed:
      (.connection, "the host name could not be resolved")
    case .cannotConnectToHost:
      (.connection, "could not connect to the server (connection refused or unreachable)")
    case .networkConnectionLost:
      (.connection, "the connection was reset or closed before the response was complete")
    case .notConnectedToInternet:
      (.connection, "there is no network connection")
    case .secureConnectionFailed:
      (.connection, "the TLS handshake failed")
    case .serverCertificateHasBadDate, .serverCertificateUntrusted, .serverCertificateHasUnknownRoot,
      .serverCertificateNotYetValid:
      (.connection, "the server's TLS certificate is not trusted")
    case .clientCertificateRejected, .clientCertificateRequired:
      (.connection, "the server requires a client certificate")
    case .httpTooManyRedirects, .redirectToNonExistentLocation:
      (.connection, "the server's redirects lead nowhere or loop")
    case .badServerResponse, .cannotParseResponse, .zeroByteResource, .cannotDecodeRawData,
      .cannotDecodeContentData:
      (.connection, "the server's response is not valid HTTP")
    case .dataLengthExceedsMaximum:
      (.decoding, "the response is larger than the worker accepts")
    case .userAuthenticationRequired, .userCancelledAuthentication:
      (.connection, "the server requires authentication the request does not carry")
    default:
      (.connection, "the transfer failed")
    }
  }
}
