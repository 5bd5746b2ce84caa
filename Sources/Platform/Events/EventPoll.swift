import CLinux
import Glibc

/// The readiness of many descriptors at once, for one thread that serves
/// them all (epoll(7), level-triggered): a descriptor is registered once,
/// with a token the caller chooses, and ``wait(milliseconds:)`` returns the
/// tokens of those ready, however many are registered and idle.
///
/// Confined to the thread that waits on it: not `Sendable`.
public final class EventPoll {
  /// What a descriptor is watched for.
  public struct Interest: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// Data to read, or the peer's end of the connection (a read returns 0).
    public static let readable = Interest(rawValue: EPOLLIN.rawValue)
    /// Room to write.
    public static let writable = Interest(rawValue: EPOLLOUT.rawValue)
  }

  /// A registered descriptor that is ready.
  public struct Event: Sendable {
    /// The token it was registered with.
    public let token: UInt64
    let events: UInt32

    /// Data can be read without waiting (or the peer has closed its end).
    public var isReadable: Bool { events & (EPOLLIN.rawValue | EPOLLRDHUP.rawValue) != 0 }
    /// Bytes can be written without waiting.
    public var isWritable: Bool { events & EPOLLOUT.rawValue != 0 }
    /// The connection is gone both ways, or failed: reported whatever the
    /// interest, so a descriptor watched for nothing still reports it.
    public var isHungUp: Bool { events & (EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 }
  }

  private let descriptor: Int32
  private var ready: [epoll_event]

  /// - Parameter capacity: the most events one ``wait(milliseconds:)``
  ///   returns; the rest are returned by the next (level-triggered, none is
  ///   lost).
  public init(capacity: Int = 256) throws(SystemFailure) {
    descriptor = epoll_create1(Int32(EPOLL_CLOEXEC))
    guard descriptor >= 0 else { throw SystemFailure.last("epoll_create1", path: "(epoll)") }
    ready = Array(repeating: epoll_event(), count: max(1, capacity))
  }

  deinit {
    close(descriptor)
  }

  /// Watches `fd` for `interest`, reporting it as `token`.
  public func add(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemFailure) {
    try control(EPOLL_CTL_ADD, fd, token: token, interest: interest)
  }

  /// Changes what `fd`, already added, is watched for.
  public func modify(_ fd: Int32, token: UInt64, interest: Interest) throws(SystemFailure) {
    try control(EPOLL_CTL_MOD, fd, token: token, interest: interest)
  }

  /// Stops watching `fd`; call it before `fd` is closed (a closed
  /// descriptor leaves the set only once every copy of it is closed).
  public func remove(_ fd: Int32) {
    _ = epoll_ctl(descriptor, EPOLL_CTL_DEL, fd, nil)
  }

  private func control(_ operation: Int32, _ fd: Int32, token: UInt64, interest: Interest) throws(SystemFailure) {
    var event = epoll_event()
    // The peer's half-close only with reading: level-triggered, it would
    // be reported on every wait of a descriptor no longer read.
    event.events = interest.rawValue | (interest.contains(.readable) ? EPOLLRDHUP.rawValue : 0)
    event.data.u64 = token
    guard epoll_ctl(descriptor, operation, fd, &event) == 0 else {
      throw SystemFailure.last("epoll_ctl", path: "descriptor \(fd)")
    }
  }

  /// Waits until a registered descriptor is ready, or `milliseconds` have
  /// passed (-1: no limit, 0: not at all), and returns those ready; none
  /// when the time passed or a signal interrupted the wait.
  public func wait(milliseconds: Int32) -> [Event] {
    let count = ready.withUnsafeMutableBufferPointer { buffer in
      epoll_wait(descriptor, buffer.baseAddress, Int32(buffer.count), milliseconds)
    }
    guard count > 0 else { return [] }
    return (0..<Int(count)).map { Event(token: ready[$0].data.u64, events: ready[$0].events) }
  }
}
