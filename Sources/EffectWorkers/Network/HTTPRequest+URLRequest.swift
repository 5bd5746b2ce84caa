import EffectRequests
import Foundation
import FoundationNetworking

extension HTTPRequest {
  /// The `URLRequest` to send, or an `invalidRequest` failure saying what is
  /// wrong: a URL that does not parse, a scheme other than http or https, a
  /// missing host, a method or header that is not valid HTTP (a header value
  /// with a line break could smuggle a second header), a timeout of zero.
  func urlRequest() -> Result<URLRequest, EffectFailure> {
    let subject = "\(method) \(displayURL)"
    func invalid(_ reason: String) -> Result<URLRequest, EffectFailure> {
      .failure(EffectFailure(.invalidRequest, "\(subject): \(reason)"))
    }
    guard !method.isEmpty, method.utf8.count <= 32, method.utf8.allSatisfy(Self.isTokenByte) else {
      return invalid("the method is not a valid HTTP method (letters such as GET or POST)")
    }
    guard let url = URL(string: self.url) else { return invalid("the URL is not valid") }
    guard let scheme = url.scheme?.lowercased() else {
      return invalid("the URL has no scheme; use http:// or https://")
    }
    guard scheme == "http" || scheme == "https" else {
      return invalid("the scheme '\(scheme)' is not supported; use http or https")
    }
    guard let host = url.host, !host.isEmpty else { return invalid("the URL has no host") }
    guard timeoutMilliseconds > 0 else {
      return invalid("the timeout must be at least 1 ms, not \(timeoutMilliseconds) ms")
    }
    for header in headers {
      guard !header.name.isEmpty, header.name.utf8.allSatisfy(Self.isTokenByte) else {
        return invalid("the header name '\(header.name)' is not a valid HTTP header name")
      }
      guard !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 }) else {
        return invalid("the value of header '\(header.name)' contains a line break or NUL")
      }
    }
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    // URLSession's own timeout is an idle timeout; the worker enforces the
    // deadline on the whole exchange itself. This one only backs it up.
    request.timeoutInterval = Double(timeoutMilliseconds) / 1000 + 1
    request.cachePolicy = .reloadIgnoringLocalCacheData
    for header in headers { request.addValue(header.value, forHTTPHeaderField: header.name) }
    return .success(request)
  }

  /// RFC 9110 `tchar`: the bytes of a method or header name.
  private static func isTokenByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"):
      true
    default:
      Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
    }
  }
}
