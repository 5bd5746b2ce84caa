/// One HTTP header field, as a request carried it or a response will send it.
///
/// Kept in arrival order (a list, not a dictionary) because HTTP allows a name
/// to repeat and tests sometimes care about the order.
public struct HTTPHeader: Hashable, Sendable, CustomStringConvertible {
  /// The field name, with the case the peer used.
  public var name: String
  /// The field value, without leading or trailing white space.
  public var value: String

  public init(_ name: String, _ value: String) {
    self.name = name
    self.value = value
  }

  /// `Name: value`, as on the wire.
  public var description: String { "\(name): \(value)" }
}

extension [HTTPHeader] {
  /// The value of the first field named `name`, compared without regard to
  /// case (HTTP field names are case-insensitive).
  public func value(for name: String) -> String? {
    first { $0.name.lowercased() == name.lowercased() }?.value
  }

  /// The values of every field named `name`, in order, compared without regard to case.
  public func values(for name: String) -> [String] {
    filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
  }
}
