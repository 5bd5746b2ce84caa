/// The id of an element of a ``StackState``: a number the stack hands out in
/// order as elements are pushed, never reused by the same stack, not even
/// after the element is popped (so an action meant for a popped screen can
/// never reach a newer one). Encodes as the number.
public struct StackElementID: Hashable, Comparable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByIntegerLiteral
{
  public let rawValue: Int

  public init(rawValue: Int) { self.rawValue = rawValue }

  public init(integerLiteral value: Int) { self.rawValue = value }

  public init(from decoder: any Decoder) throws {
    rawValue = try decoder.singleValueContainer().decode(Int.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(rawValue)
  }

  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  public var description: String { "\(rawValue)" }
}
