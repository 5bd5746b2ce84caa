import FoundationEssentials
import JSON

/// Tells the current date: the wall clock when live, a fixed date in tests.
///
/// The live clock gives dates at whole milliseconds, the precision the
/// journal records and a date's JSON keeps (``JSONDate``), so that a state
/// holding `date()` encodes, decodes and replays to the very same `Date`.
public struct DateGenerator: Sendable {
  private let read: @Sendable () -> Date

  public init(_ now: @escaping @Sendable () -> Date) {
    self.read = now
  }

  /// The current date.
  public var now: Date { read() }

  public func callAsFunction() -> Date { read() }

  /// The system's wall clock, at the nearest whole millisecond.
  public static let live = DateGenerator { JSONDate.date(milliseconds: JSONDate.nearestMilliseconds(to: Date())) }

  /// Always `date`, as given: a date with a finer fraction than a
  /// millisecond is rounded when the state is encoded (``JSONDate``).
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
