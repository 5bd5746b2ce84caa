import FoundationEssentials

/// Tells the current date: the wall clock when live, a fixed date in tests.
public struct DateGenerator: Sendable {
  private let read: @Sendable () -> Date

  public init(_ now: @escaping @Sendable () -> Date) {
    self.read = now
  }

  /// The current date.
  public var now: Date { read() }

  public func callAsFunction() -> Date { read() }

  /// The system's wall clock.
  public static let live = DateGenerator { Date() }

  /// Always `date`.
  public static func constant(_ date: Date) -> DateGenerator { DateGenerator { date } }
}

enum DateGeneratorKey: DependencyKey {
  static var liveValue: DateGenerator { .live }
}

extension DependencyValues {
  /// The current date, for timestamps in state.
  public var date: DateGenerator {
    get { self[DateGeneratorKey.self] }
    set { self[DateGeneratorKey.self] = newValue }
  }
}
