/// A feature's window onto a value that lives once, elsewhere in the state:
/// TCA's `@Shared`, for a daemon whose whole state is already one durable
/// document.
///
/// ```swift
/// struct AddToCart: Reducer {
///   struct State: Equatable, Sendable, Codable {
///     @Shared var count: Int      // the cart's quantity of this product
///   }
///   …
/// }
/// ```
///
/// The feature reads and writes it as its own, while it reduces; its parent
/// connects it to where it lives with ``Reducer/sharing(_:with:for:)`` (or
/// ``Reducer/sharing(key:source:store:copy:)`` for the elements of a
/// collection), which fills it before the feature runs and writes what the
/// feature changed back after, then empties it again. So the value is in the
/// state once: it is never encoded from the feature's side (its member is
/// left out of the JSON), a change to it is one operation in a diff, and it
/// survives a restart where it lives. A feature's state made by hand (a test
/// of the feature alone) holds its own value, which it compares as any other.
///
/// Reading one that is not filled (the feature ran without its parent's
/// sharing) stops the program, naming the value: it is a mistake in how the
/// features are composed, like an unconnected dependency in TCA. It is
/// filled only around the actions its parent shares it for, so a feature's
/// `recoveryAction(for:)` and any value it derives for its JSON must not
/// read it.
@propertyWrapper
public struct Shared<Value> {
  @usableFromInline var value: Value?

  /// A value of the feature's own, as a test or a preview makes one.
  @inlinable public init(wrappedValue: Value) { self.value = wrappedValue }

  /// Not filled: as read back from the JSON, or after its parent's sharing.
  @inlinable public init() { self.value = nil }

  @inlinable public var wrappedValue: Value {
    get {
      guard let value else {
        // invariant: only features composed without their parent's sharing read an empty one (a mistake in code, like
        // an unconnected dependency); decoding from input leaves it empty, and the parent fills it before any action
        // reaches the feature
        preconditionFailure(
          "a @Shared \(Value.self) was read but never filled: its parent shares it with .sharing(…)")
      }
      return value
    }
    set { value = newValue }
  }

  /// The shared value itself (`$count`), for the parent that fills it.
  @inlinable public var projectedValue: Shared<Value> {
    get { self }
    set { self = newValue }
  }

  /// Whether it holds a value.
  @inlinable public var isFilled: Bool { value != nil }

  /// Empties it, as its parent's sharing does once the feature has run.
  @inlinable public mutating func empty() { value = nil }
}

extension Shared: Sendable where Value: Sendable {}

/// A ``Shared`` value of any type, for code that looks through a state
/// (a test's check that the state survives its JSON: a filled one does not,
/// since its value lives elsewhere).
public protocol SharedReference {
  /// Whether it holds a value.
  var isFilled: Bool { get }
}

extension Shared: SharedReference {}

extension Shared: Equatable where Value: Equatable {
  /// Two empty ones are equal, and two filled ones holding equal values.
  @inlinable public static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }
}

extension Shared: Hashable where Value: Hashable {}

extension Shared: Encodable {
  /// Encodes nothing: the value is encoded where it lives. (A feature's
  /// synthesized `encode(to:)` leaves the member out altogether, through
  /// `KeyedEncodingContainer.encode(_:forKey:)` below.)
  public func encode(to encoder: any Encoder) throws {}
}

extension Shared: Decodable {
  /// Not filled: the value is read where it lives.
  public init(from decoder: any Decoder) throws { self.init() }
}

extension KeyedEncodingContainer {
  /// Leaves a shared value's member out: it is encoded where the value lives.
  public mutating func encode<Value>(_ value: Shared<Value>, forKey key: Key) throws {}
}

extension KeyedDecodingContainer {
  /// Reads a shared value's member, present or not (a state saved before the
  /// value was shared holds it), as not filled.
  public func decode<Value>(_ type: Shared<Value>.Type, forKey key: Key) throws -> Shared<Value> {
    Shared()
  }
}
