/// A request target (RFC 9112 §3.2) split into its percent-decoded path and
/// query items.
public struct HTTPRequestTarget: Equatable, Sendable {
  /// One `name=value` pair of a query, decoded; `value` is nil for a bare
  /// name.
  public struct QueryItem: Equatable, Sendable {
    public var name: String
    public var value: String?

    public init(name: String, value: String?) {
      self.name = name
      self.value = value
    }
  }

  /// The path, percent-decoded: `/a%20b` is `/a b`.
  public var path: String
  /// The query's pairs in order, percent-decoded, `+` read as a space (as
  /// HTML forms write them; an encoded plus is `%2B`).
  public var query: [QueryItem]

  /// Splits `target`. An absolute-form target (`http://host/path`) is
  /// reduced to its path; a fragment is dropped.
  public init(_ target: String) {
    var rest = Substring(target)
    if let colon = rest.firstIndex(of: ":"), rest[..<colon].allSatisfy(\.isLetter),
      rest[colon...].hasPrefix("://")
    {
      rest = rest[rest.index(colon, offsetBy: 3)...]
      rest = rest.firstIndex(of: "/").map { rest[$0...] } ?? "/"
    }
    if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
    guard let mark = rest.firstIndex(of: "?") else {
      path = PercentDecoding.decode(rest, plusIsSpace: false)
      query = []
      return
    }
    path = PercentDecoding.decode(rest[..<mark], plusIsSpace: false)
    query = rest[rest.index(after: mark)...].split(separator: "&").map { pair in
      guard let equals = pair.firstIndex(of: "=") else {
        return QueryItem(name: PercentDecoding.decode(pair, plusIsSpace: true), value: nil)
      }
      return QueryItem(
        name: PercentDecoding.decode(pair[..<equals], plusIsSpace: true),
        value: PercentDecoding.decode(pair[pair.index(after: equals)...], plusIsSpace: true))
    }
  }

  /// The value of the first query item named `name` (`""` for a bare name).
  public func value(for name: String) -> String? {
    query.first { $0.name == name }.map { $0.value ?? "" }
  }
}
