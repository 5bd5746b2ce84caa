import Testing

@testable import StoreDaemon

/// A new lineage's epoch is always 16 hex digits: a random number with
/// leading zero digits is padded, so a `welcome` frame's length never
/// varies with it (docs/PROTOCOL.md's example session depends on that).
@Suite struct NewEpochTests {
  @Test func everyNewEpochIsSixteenHexDigits() {
    for _ in 0..<2000 {
      let epoch = StateRecovery<Int>.newEpoch()
      #expect(epoch.utf8.count == 16, "\(epoch)")
      #expect(epoch.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(epoch)")
    }
  }
}
