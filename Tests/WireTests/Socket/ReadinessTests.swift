import Glibc
import Testing
import Wire

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
    (Duration.zero, Int32(0)), (.nanoseconds(1), 1), (.milliseconds(1), 1), (.microseconds(1001), 2), (.seconds(3), 3000),
  ])
  func deadlinesRoundUpToWholeMilliseconds(_ ahead: Duration, _ milliseconds: Int32) {
    // Measured from an instant slightly in the past, the deadline may only
    // come sooner: the answer is at most the expected one, and at most 1 ms less.
    let answer = Readiness.milliseconds(until: .now + ahead)
    #expect(answer <= milliseconds && answer >= max(0, milliseconds - 1))
  }

  @Test func aPastDeadlineWaitsNotAtAll() {
    #expect(Readiness.milliseconds(until: .now - .seconds(1)) == 0)
  }
}
