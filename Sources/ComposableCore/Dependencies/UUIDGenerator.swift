import FoundationEssentials
import Synchronization

/// Makes UUIDs: random ones when live, predictable ones in tests.
public struct UUIDGenerator: Sendable {
  private let generate: @Sendable () -> UUID

  public init(_ generate: @escaping @Sendable () -> UUID) {
    self.generate = generate
  }

  public func callAsFunction() -> UUID { generate() }

  /// Random (version 4) UUIDs.
  public static let live = UUIDGenerator { UUID() }

  /// 00000000-0000-0000-0000-000000000000, then ...0001, ...0002 and so on.
  public static func incrementing() -> UUIDGenerator {
    let counter = Atomic<UInt64>(0)
    return UUIDGenerator {
      let value = counter.add(1, ordering: .relaxed).oldValue
      return UUID(counting: value)
    }
  }

  /// Always `uuid`.
  public static func constant(_ uuid: UUID) -> UUIDGenerator { UUIDGenerator { uuid } }
}

extension UUID {
  /// The UUID whose last 12 hexadecimal digits are `value`, as used in tests.
  public init(counting value: UInt64) {
    let hex = String(value, radix: 16)
    let padded = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
    self.init(uuidString: "00000000-0000-0000-0000-\(padded.uppercased())")!
  }
}

enum UUIDGeneratorKey: DependencyKey {
  static var liveValue: UUIDGenerator { .live }
}

extension DependencyValues {
  /// The source of UUIDs for new identifiers.
  public var uuid: UUIDGenerator {
    get { self[UUIDGeneratorKey.self] }
    set { self[UUIDGeneratorKey.self] = newValue }
  }
}
