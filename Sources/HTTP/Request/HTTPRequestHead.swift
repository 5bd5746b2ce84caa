/// The request line and header fields of one HTTP/1.x request, before its body.
public struct HTTPRequestHead: Equatable, Sendable {
  public var method: String
  public var target: String
  /// `HTTP/1.1` or `HTTP/1.0`.
  public var version: String
  public var headers: [HTTPHeader]

  public init(method: String, target: String, version: String, headers: [HTTPHeader]) {
    self.method = method
    self.target = target
    self.version = version
    self.headers = headers
  }

  /// Whether the connection must close after the answer: HTTP/1.1 keeps it
  /// open unless the client sent `Connection: close`; HTTP/1.0 closes it
  /// unless the client sent `Connection: keep-alive`.
  public var closesConnection: Bool {
    let tokens = headers.values(for: "Connection")
      .flatMap { $0.split(separator: ",") }
      .map { $0.trimmingWhitespace.lowercased() }
    if version == "HTTP/1.0" { return !tokens.contains("keep-alive") }
    return tokens.contains("close")
  }

  /// Whether the client waits for `100 Continue` before sending its body.
  public var expectsContinue: Bool {
    headers.value(for: "Expect")?.lowercased() == "100-continue"
  }
}

extension StringProtocol {
  /// The text without leading and trailing spaces and tabs (HTTP's OWS).
  public var trimmingWhitespace: String {
    var slice = Substring(self)
    while slice.first == " " || slice.first == "\t" { slice.removeFirst() }
    while slice.last == " " || slice.last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
