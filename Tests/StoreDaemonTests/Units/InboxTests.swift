import Dispatch
import Glibc
import Testing
import Wire

@testable import StoreDaemon

/// The store loop's mailbox and how the loop waits on it and on the workers'
/// sockets: real threads, a real pipe, real sockets.
@Suite struct InboxTests {
  /// A socketpair: the loop reads `near`, the test writes to `far`.
  typealias Pair = OutboxWriteThroughTests.Pair

  /// Makes `pair.near` readable.
  static func speak(_ pair: Pair) {
    var byte: UInt8 = 1
    precondition(write(pair.far, &byte, 1) == 1)
  }

  @Test func aPostWakesTheSleepingLoopAndIsTakenInOrder() {
    let inbox = Inbox<Int>()
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(20)) {
      inbox.post(1)
      inbox.post(2)
    }
    let start = ContinuousClock.now
    // Woken by the pipe, which is not reported as a descriptor.
    #expect(inbox.sleep(until: .now + .seconds(10), alsoReading: []).isEmpty)
    #expect(ContinuousClock.now - start < .seconds(5))
    // The second post may come just after the wake-up.
    var taken = inbox.take()
    while taken.count < 2 { taken += inbox.take() }
    #expect(taken == [1, 2])
    #expect(!inbox.hasCommands)
  }

  @Test func aQueuedCommandIsNotSleptOn() {
    let inbox = Inbox<Int>()
    inbox.post(7)
    #expect(inbox.hasCommands)
    let start = ContinuousClock.now
    #expect(inbox.sleep(until: .now + .seconds(10), alsoReading: []).isEmpty)
    #expect(ContinuousClock.now - start < .seconds(5))
    #expect(inbox.take() == [7])
  }

  @Test func aWakeUpIsUsedOnce() {
    let inbox = Inbox<Int>()
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(10)) { inbox.post(1) }
    _ = inbox.sleep(until: .now + .seconds(10), alsoReading: [])
    while inbox.take().isEmpty {}
    // The pipe was emptied: the next sleep lasts until its deadline.
    let start = ContinuousClock.now
    #expect(inbox.sleep(until: .now + .milliseconds(30), alsoReading: []).isEmpty)
    #expect(ContinuousClock.now - start >= .milliseconds(25))
  }

  @Test func sleepReportsTheReadableSockets() {
    let inbox = Inbox<Int>()
    let quiet = Pair()
    let spoken = Pair()
    Self.speak(spoken)
    #expect(inbox.sleep(until: .now + .seconds(10), alsoReading: [quiet.near, spoken.near]) == [spoken.near])
    #expect(inbox.take().isEmpty)
  }

  @Test func aBusyLoopStillSeesItsSockets() {
    let inbox = Inbox<Int>()
    inbox.post(1)
    let socket = Pair()
    Self.speak(socket)
    var waiter = LoopWaiter(spin: .zero)
    let start = ContinuousClock.now
    var ready: [Int32] = []
    // The command is never taken: the loop stays busy, and must still look.
    while ready.isEmpty && ContinuousClock.now - start < .seconds(5) {
      ready = waiter.wait(for: inbox, until: .now + .seconds(10), alsoReading: [socket.near])
    }
    #expect(ready == [socket.near])
  }

  @Test func anIdleLoopThatDoesNotSpinSleepsUntilItsDeadline() {
    let inbox = Inbox<Int>()
    let socket = Pair()
    var waiter = LoopWaiter(spin: .zero)
    let start = ContinuousClock.now
    #expect(waiter.wait(for: inbox, until: .now + .milliseconds(30), alsoReading: [socket.near]).isEmpty)
    #expect(ContinuousClock.now - start >= .milliseconds(25))
  }

  @Test(arguments: [Duration.zero, .milliseconds(5)])
  func aSpinningOrSleepingLoopReturnsForAPostOrASocket(_ spin: Duration) {
    let inbox = Inbox<Int>()
    let socket = Pair()
    var waiter = LoopWaiter(spin: spin)
    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { inbox.post(1) }
    #expect(waiter.wait(for: inbox, until: .now + .seconds(10), alsoReading: [socket.near]).isEmpty)
    while !inbox.hasCommands {}
    #expect(inbox.take() == [1])

    DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(2)) { Self.speak(socket) }
    var ready: [Int32] = []
    let start = ContinuousClock.now
    while ready.isEmpty && ContinuousClock.now - start < .seconds(5) {
      ready = waiter.wait(for: inbox, until: .now + .seconds(10), alsoReading: [socket.near])
    }
    #expect(ready == [socket.near])
    #expect(ContinuousClock.now - start < .seconds(5))
  }
}
