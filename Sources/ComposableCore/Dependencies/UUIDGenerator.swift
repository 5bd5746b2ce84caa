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
  /// The UUID whose last 16 hexadecimal digits are `value` (its last 12
  /// for a value below 2^48, `00000000-0000-0000-0000-00000000000A` for
  /// 10), as used in tests: built from its bytes, so every value has one.
  public init(counting value: UInt64) {
    let byte = { (shift: UInt64) in UInt8(truncatingIfNeeded: value >> shift) }
    self.init(
      uuid: (
        0, 0, 0, 0, 0, 0, 0, 0, byte(56), byte(48), byte(40), byte(32), byte(24), byte(16), byte(8), byte(0)
      ))
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
