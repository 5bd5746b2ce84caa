import Glibc
import Platform
import Testing

/// The epoll wrapper and the eventfd wake signal, on real descriptors.
@Suite struct EventPollTests {
  /// A connected pair of Unix stream sockets, closed by the caller.
  static func socketPair() -> (Int32, Int32) {
    var ends: [Int32] = [-1, -1]
    #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
    return (ends[0], ends[1])
  }

  @Test func aDescriptorWithDataIsReportedByItsToken() throws {
    let poll = try EventPoll()
    let (a, b) = Self.socketPair()
    defer {
      close(a)
      close(b)
    }
    try poll.add(a, token: 7, interest: .readable)
    #expect(poll.wait(milliseconds: 0).isEmpty, "nothing to read yet")
    var byte: UInt8 = 1
    #expect(write(b, &byte, 1) == 1)
    let events = poll.wait(milliseconds: 10_000)
    #expect(events.map(\.token) == [7])
    #expect(events.first?.isReadable == true)
    #expect(events.first?.isWritable == false)
    // Level-triggered: still ready until read.
    #expect(poll.wait(milliseconds: 0).map(\.token) == [7])
    #expect(read(a, &byte, 1) == 1)
    #expect(poll.wait(milliseconds: 0).isEmpty)
  }

  @Test func writabilityIsReportedOnlyWhenAsked() throws {
    let poll = try EventPoll()
    let (a, b) = Self.socketPair()
    defer {
      close(a)
      close(b)
    }
    try poll.add(a, token: 1, interest: .readable)
    #expect(poll.wait(milliseconds: 0).isEmpty)
    try poll.modify(a, token: 2, interest: [.readable, .writable])
    let events = poll.wait(milliseconds: 10_000)
    #expect(events.map(\.token) == [2])
    #expect(events.first?.isWritable == true)
  }

  @Test func aPeerThatClosesIsReadableAndThenHungUp() throws {
    let poll = try EventPoll()
    let (a, b) = Self.socketPair()
    defer { close(a) }
    try poll.add(a, token: 3, interest: [])
    close(b)
    let events = poll.wait(milliseconds: 10_000)
    #expect(events.map(\.token) == [3])
    #expect(events.first?.isHungUp == true, "reported even when watched for nothing")
  }

  /// A peer's half-close is reported only to a descriptor watched for
  /// reading: one no longer read is not woken for it on every wait.
  @Test func aHalfCloseIsReportedOnlyWhenReading() throws {
    let poll = try EventPoll()
    let (a, b) = Self.socketPair()
    defer {
      close(a)
      close(b)
    }
    try poll.add(a, token: 5, interest: [])
    shutdown(b, Int32(SHUT_WR))
    #expect(poll.wait(milliseconds: 0).isEmpty)
    try poll.modify(a, token: 5, interest: .readable)
    #expect(poll.wait(milliseconds: 10_000).first?.isReadable == true)
  }

  @Test func aRemovedDescriptorIsNoLongerReported() throws {
    let poll = try EventPoll()
    let (a, b) = Self.socketPair()
    defer {
      close(a)
      close(b)
    }
    try poll.add(a, token: 4, interest: .writable)
    #expect(poll.wait(milliseconds: 0).count == 1)
    poll.remove(a)
    #expect(poll.wait(milliseconds: 0).isEmpty)
  }

  @Test func moreReadyThanTheCapacityComeInTheNextWait() throws {
    let poll = try EventPoll(capacity: 2)
    var pairs: [(Int32, Int32)] = []
    defer {
      for (a, b) in pairs {
        close(a)
        close(b)
      }
    }
    for token in 0..<5 {
      let pair = Self.socketPair()
      pairs.append(pair)
      try poll.add(pair.0, token: UInt64(token), interest: .writable)
    }
    var seen = Set<UInt64>()
    for _ in 0..<10 where seen.count < 5 {
      let events = poll.wait(milliseconds: 0)
      #expect(events.count <= 2)
      for event in events {
        seen.insert(event.token)
        poll.remove(pairs[Int(event.token)].0)
      }
    }
    #expect(seen == [0, 1, 2, 3, 4])
  }

  @Test func addingADescriptorThatIsNotOpenSaysWhich() throws {
    let poll = try EventPoll()
    #expect {
      try poll.add(987_654, token: 0, interest: .readable)
    } throws: { error in
      (error as? SystemFailure)?.code == EBADF && "\(error)".contains("descriptor 987654")
    }
  }

  @Test func aWakeSignalWakesAWaitUntilCleared() throws {
    let poll = try EventPoll()
    let wake = try WakeSignal()
    try poll.add(wake.descriptor, token: 9, interest: .readable)
    #expect(poll.wait(milliseconds: 0).isEmpty)
    try DetachedThread.start(name: "waker") { wake.signal() }
    #expect(poll.wait(milliseconds: 10_000).map(\.token) == [9])
    wake.signal()
    wake.signal()
    wake.clear()
    #expect(poll.wait(milliseconds: 0).isEmpty, "one clear takes every signal")
  }
}
