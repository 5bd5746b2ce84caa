import FoundationEssentials

/// A type whose values can be written as one word of a command line, or
/// that says how its values are written.
///
/// A case's schema reads each associated value's from its type
/// (``ActionSchema/init(deriving:)``): a type of this protocol says it here;
/// a string enum that lists its cases (`CaseIterable`) is written as one of
/// its raw values without conforming; any other `Codable` type is a JSON
/// payload checked by decoding it.
public protocol DescribedValue {
  /// How values of this type are written and checked.
  static var valueSchema: ValueSchema { get }
}

extension Int: DescribedValue {
  /// A whole number: `3`, `-1`.
  public static var valueSchema: ValueSchema { .int }
}

extension Double: DescribedValue {
  /// A finite number: `70.5`, `180`.
  public static var valueSchema: ValueSchema { .double }
}

extension String: DescribedValue {
  /// Any text; quote it for the shell when it has spaces.
  public static var valueSchema: ValueSchema { .string }
}

extension Bool: DescribedValue {
  /// `true` or `false`.
  public static var valueSchema: ValueSchema { .bool }
}

extension UUID: DescribedValue {
  /// A UUID in its usual text form.
  public static var valueSchema: ValueSchema { .uuid }
}

extension Optional: DescribedValue where Wrapped: DescribedValue {
  /// The wrapped value, or `null` for `nil`.
  public static var valueSchema: ValueSchema { .optional(Wrapped.valueSchema) }
}

extension DescribedValue where Self: RawRepresentable & CaseIterable, RawValue == String {
  /// A string enum is written as one of its raw values.
  public static var valueSchema: ValueSchema { .enumeration(Self.self) }
}
