import Glibc
import Platform
import Testing

/// `poll` for input over several descriptors, with real sockets.
@Suite struct ReadinessTests {
  @Test func reportsTheDescriptorsWithInputOrAHangUpInTheOrderGiven() throws {
    let quiet = UnixSocketTests.Pair()
    let spoken = UnixSocketTests.Pair()
    let closed = UnixSocketTests.Pair()
    try spoken.far.write([1])
    closed.far.shutdown()
    let descriptors = [closed.near.descriptor, quiet.near.descriptor, spoken.near.descriptor]
    #expect(Readiness.readable(descriptors, milliseconds: 0) == [closed.near.descriptor, spoken.near.descriptor])
  }

  @Test func waitsUpToItsTimeoutWhenNothingArrives() {
    let quiet = UnixSocketTests.Pair()
    let start = ContinuousClock.now
    #expect(Readiness.readable([quiet.near.descriptor], milliseconds: 30).isEmpty)
    #expect(ContinuousClock.now - start >= .milliseconds(25))
  }

  @Test(arguments: [
    (Duration.zero, Int32(0)), (.nanoseconds(1), 1), (.milliseconds(1), 1), (.microseconds(1001), 2),
    (.nanoseconds(2_999_999_999), 3000), (.seconds(3), 3000), (.seconds(-1), 0), (.seconds(1 << 40), .max),
  ])
  func deadlinesRoundUpToWholeMilliseconds(_ ahead: Duration, _ milliseconds: Int32) {
    let now = ContinuousClock.now
    #expect(Readiness.milliseconds(until: now + ahead, now: now) == milliseconds)
  }

  @Test func aPastDeadlineWaitsNotAtAll() {
    #expect(Readiness.milliseconds(until: .now - .seconds(1)) == 0)
  }
}
