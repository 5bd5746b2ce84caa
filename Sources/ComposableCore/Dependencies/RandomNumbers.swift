import Synchronization

/// Draws random integers: from the system generator when live, from a fixed
/// sequence in tests.
public struct RandomNumbers: Sendable {
  private let draw: @Sendable (ClosedRange<Int>) -> Int

  public init(_ draw: @escaping @Sendable (ClosedRange<Int>) -> Int) {
    self.draw = draw
  }

  /// A number in `range`.
  public func int(in range: ClosedRange<Int>) -> Int { draw(range) }

  /// The system's random number generator.
  public static let live = RandomNumbers { Int.random(in: $0) }

  /// Returns `values` in order, then starts again; each value is clamped to the
  /// requested range.
  public static func sequence(_ values: [Int]) -> RandomNumbers {
    // invariant: a test's own list of values, never input
    precondition(!values.isEmpty, "RandomNumbers.sequence needs at least one value")
    let next = Atomic<Int>(0)
    return RandomNumbers { range in
      let value = values[next.add(1, ordering: .relaxed).oldValue % values.count]
      return min(max(value, range.lowerBound), range.upperBound)
    }
  }

  /// Always `value`, clamped to the requested range.
  public static func constant(_ value: Int) -> RandomNumbers { sequence([value]) }
}

enum RandomNumbersKey: DependencyKey {
  static var liveValue: RandomNumbers { .live }
}

extension DependencyValues {
  /// Random integers.
  public var randomNumbers: RandomNumbers {
    get { self[RandomNumbersKey.self] }
    set { self[RandomNumbersKey.self] = newValue }
  }
}
