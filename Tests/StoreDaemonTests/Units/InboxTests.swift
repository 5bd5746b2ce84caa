import Dispatch
import Glibc
import Platform
import Synchronization
import TestSupport
import Testing
import Wire

@testable import StoreDaemon

/// The store loop's mailbox and how the loop waits on it and on its
/// sockets: real threads, a real eventfd, a real epoll, real sockets.
///
/// A post or a socket that must wake a sleeping loop is made only once the
/// loop's thread is seen blocked in `epoll_wait` (``ThreadProbe``), so that it
/// cannot land before the sleep and let the test pass without a wake-up.
/// Deadlines are far off, and a wait that must end early is checked to have
/// ended before its deadline: that holds however slow the machine is.
@Suite(.ownThreads) struct InboxTests {
  /// A socketpair: the loop reads `near`, the test writes to `far`.
  typealias Pair = OutboxWritingTests.Pair

  /// Far enough that a wait reaching it means nothing woke it.
  static let farOff: Duration = .seconds(60)

  /// Makes `pair.near` readable.
  static func speak(_ pair: Pair) {
    var byte: UInt8 = 1
    precondition(write(pair.far, &byte, 1) == 1)
  }

  /// Runs `act` on another thread once the calling thread is blocked in
  /// `poll`; the returned function gives the probe's failure, if any, after.
  static func onceThisThreadPolls(_ act: @escaping @Sendable () -> Void) -> @Sendable () -> ThreadProbeError? {
    let loop = ThreadProbe.current()
    let failure = Mutex<ThreadProbeError?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do {
        try loop.waitUntilBlocked(in: [.poll])
      } catch {
        failure.withLock { $0 = error as? ThreadProbeError }
      }
      act()
      done.signal()
    }
    return {
      done.wait()
      return failure.withLock { $0 }
    }
  }

  /// An inbox and an event poll as the store loop has them, with `pairs`
  /// registered as tokens 1, 2, …
  static func loop(_ pairs: [Pair] = []) -> (Inbox<Int>, EventPoll) {
    let inbox = try! Inbox<Int>()
    let poll = try! EventPoll()
    try! poll.add(inbox.wake.descriptor, token: LoopWaiter.wakeToken, interest: .readable)
    for (index, pair) in pairs.enumerated() { try! poll.add(pair.near, token: UInt64(index + 1), interest: .readable) }
    return (inbox, poll)
  }

  @Test func aPostWakesTheSleepingLoopAndIsTakenInOrder() {
    let (inbox, poll) = Self.loop()
    let posted = Self.onceThisThreadPolls {
      inbox.post(1)
      inbox.post(2)
    }
    let deadline = ContinuousClock.now + Self.farOff
    // Woken by the wake signal, which is not reported as a socket.
    #expect(LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: deadline).isEmpty)
    #expect(ContinuousClock.now < deadline, "the sleep lasted until its deadline: the post did not wake it")
    #expect(posted() == nil)
    // The second post may come just after the wake-up.
    var taken = inbox.take()
    while taken.count < 2 { taken += inbox.take() }
    #expect(taken == [1, 2])
    #expect(!inbox.hasCommands)
  }

  @Test func aQueuedCommandIsNotSleptOn() {
    let (inbox, poll) = Self.loop()
    inbox.post(7)
    #expect(inbox.hasCommands)
    // Nothing else posts: a sleep would last until the deadline.
    let deadline = ContinuousClock.now + Self.farOff
    #expect(LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: deadline).isEmpty)
    #expect(ContinuousClock.now < deadline)
    #expect(inbox.take() == [7])
  }

  @Test func aWakeUpIsUsedOnce() {
    let (inbox, poll) = Self.loop()
    // Posted while the loop sleeps: the post signals the eventfd.
    let posted = Self.onceThisThreadPolls { inbox.post(1) }
    let deadline = ContinuousClock.now + Self.farOff
    _ = LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: deadline)
    #expect(ContinuousClock.now < deadline, "the sleep lasted until its deadline: the post did not wake it")
    #expect(posted() == nil)
    while inbox.take().isEmpty {}
    // The signal was cleared: the next sleep lasts until its deadline.
    let start = ContinuousClock.now
    #expect(LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: .now + .milliseconds(30)).isEmpty)
    #expect(ContinuousClock.now - start >= .milliseconds(25))
  }

  @Test func aWaitReportsTheReadySockets() {
    let quiet = Pair()
    let spoken = Pair()
    let (inbox, poll) = Self.loop([quiet, spoken])
    Self.speak(spoken)
    #expect(LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: .now + Self.farOff).map(\.token) == [2])
    #expect(inbox.take().isEmpty)
  }

  @Test func aBusyLoopStillSeesItsSockets() {
    let socket = Pair()
    let (inbox, poll) = Self.loop([socket])
    inbox.post(1)
    Self.speak(socket)
    let waiter = LoopWaiter(spin: .zero)
    let start = ContinuousClock.now
    var ready: [EventPoll.Event] = []
    // The command is never taken: the loop stays busy, and must still look.
    while ready.isEmpty && ContinuousClock.now - start < Self.farOff {
      ready = waiter.wait(for: inbox, on: poll, until: .now + Self.farOff)
    }
    #expect(ready.map(\.token) == [1])
  }

  @Test func anIdleLoopThatDoesNotSpinSleepsUntilItsDeadline() {
    let socket = Pair()
    let (inbox, poll) = Self.loop([socket])
    let start = ContinuousClock.now
    #expect(LoopWaiter(spin: .zero).wait(for: inbox, on: poll, until: .now + .milliseconds(30)).isEmpty)
    #expect(ContinuousClock.now - start >= .milliseconds(25))
  }

  /// Without a spin, the post and the socket come while the loop sleeps in
  /// `epoll_wait`; with one, while it spins (the spin is longer than any
  /// wait, so a return before its end is the spin seeing them).
  @Test(arguments: [Duration.zero, Self.farOff])
  func aSpinningOrSleepingLoopReturnsForAPostOrASocket(_ spin: Duration) {
    let socket = Pair()
    let (inbox, poll) = Self.loop([socket])
    let waiter = LoopWaiter(spin: spin)
    let deadline = ContinuousClock.now + Self.farOff * 2
    let posted = Self.whileWaiting(spinning: spin > .zero) { inbox.post(1) }
    let postStart = ContinuousClock.now
    #expect(waiter.wait(for: inbox, on: poll, until: deadline).isEmpty)
    #expect(ContinuousClock.now - postStart < Self.farOff, "the wait did not end for the post")
    #expect(posted() == nil)
    while !inbox.hasCommands {}
    #expect(inbox.take() == [1])

    let spoken = Self.whileWaiting(spinning: spin > .zero) { Self.speak(socket) }
    let start = ContinuousClock.now
    #expect(waiter.wait(for: inbox, on: poll, until: deadline).map(\.token) == [1])
    #expect(ContinuousClock.now - start < Self.farOff, "the wait did not end for the socket")
    #expect(spoken() == nil)
  }

  /// Runs `act` once the calling thread waits: blocked in `poll` when it
  /// does not spin; when it does (a spinning thread is never seen blocked),
  /// once it has run for 20 ms after this call, which it can only have done
  /// in the spin, the one thing it does for that long.
  static func whileWaiting(spinning: Bool, _ act: @escaping @Sendable () -> Void) -> @Sendable () -> ThreadProbeError? {
    guard spinning else { return onceThisThreadPolls(act) }
    let loop = ThreadProbe.current()
    let failure = Mutex<ThreadProbeError?>(nil)
    let done = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      do {
        try loop.waitUntilItRuns(for: .milliseconds(20))
      } catch {
        failure.withLock { $0 = error as? ThreadProbeError }
      }
      act()
      done.signal()
    }
    return {
      done.wait()
      return failure.withLock { $0 }
    }
  }
}
