import Foundation
import Glibc

/// A thread of this process seen through `/proc`: whether it is asleep in a
/// given system call. A test that must act while another thread waits (a
/// post that has to wake a sleeping `poll`, a shutdown that has to end a
/// blocked read) waits until the thread is certainly there, instead of
/// sleeping a while and hoping it got there: on a busy machine it may not
/// have, and the test would pass without exercising its case.
public struct ThreadProbe: Sendable {
  /// `/proc/<pid>/task/<tid>`.
  public let path: String

  /// The calling thread.
  public static func current() -> ThreadProbe {
    // "<pid>/task/<tid>"; /proc is always there on Linux.
    let target = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/thread-self")) ?? "self"
    return ThreadProbe(path: "/proc/" + target)
  }

  /// The number of the system call the thread is blocked in, or nil while it
  /// runs (or waits outside any system call).
  public var blockedSystemCall: Int? {
    guard let text = try? String(contentsOfFile: path + "/syscall", encoding: .utf8),
      let first = text.split(separator: " ").first,
      let number = Int(first.trimmingCharacters(in: .whitespacesAndNewlines)),
      number >= 0
    else { return nil }
    return number
  }

  /// How long the thread has run on a processor so far (`schedstat`).
  public var cpuTime: Duration? {
    guard let text = try? String(contentsOfFile: path + "/schedstat", encoding: .utf8),
      let first = text.split(separator: " ").first, let nanoseconds = Int64(first)
    else { return nil }
    return .nanoseconds(nanoseconds)
  }

  /// Waits until the thread has run for `duration` more than it had when
  /// called: a thread that spins (and is never seen blocked) has certainly
  /// reached its spin once it ran that long after the last thing it did
  /// before it. Throws after `timeout`.
  public func waitUntilItRuns(for duration: Duration, timeout: Duration = .seconds(20)) throws {
    let start = cpuTime ?? .zero
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
      if let now = cpuTime, now - start >= duration { return }
      usleep(1000)
    }
    throw ThreadProbeError(description: "the thread at \(path) did not run for \(duration) within \(timeout)")
  }

  /// Waits until the thread is blocked in one of `calls`; throws after `timeout`.
  public func waitUntilBlocked(in calls: Set<SystemCall>, timeout: Duration = .seconds(20)) throws {
    let numbers = Set(calls.flatMap(\.numbers))
    let deadline = ContinuousClock.now + timeout
    var last: Int?
    while ContinuousClock.now < deadline {
      last = blockedSystemCall
      if let last, numbers.contains(last) { return }
      usleep(1000)
    }
    throw ThreadProbeError(
      description: "the thread at \(path) was not blocked in \(calls.map { "\($0)" }.sorted()) within \(timeout) "
        + "(last seen: \(last.map { "system call \($0)" } ?? "running"))")
  }

  /// The blocking system calls a test waits for, by what they do.
  public enum SystemCall: Hashable, Sendable, CustomStringConvertible {
    /// `poll`, `ppoll` or `epoll_wait`.
    case poll
    /// `read` or `recvfrom`.
    case read
    /// `futex`: a semaphore or a lock (nothing else takes the lock while a
    /// test waits for a thread asleep on its semaphore).
    case futex

    /// Their numbers on this architecture.
    var numbers: [Int] {
      #if arch(x86_64)
        switch self {
        case .poll: [7, 271, 232, 281, 441]
        case .read: [0, 45]
        case .futex: [202]
        }
      #elseif arch(arm64)
        switch self {
        case .poll: [73, 22, 441]
        case .read: [63, 207]
        case .futex: [98]
        }
      #else
        #error("ThreadProbe knows the system call numbers of x86_64 and arm64 only")
      #endif
    }

    public var description: String {
      switch self {
      case .poll: "poll"
      case .read: "read"
      case .futex: "futex"
      }
    }
  }
}

/// A thread did not reach the wait a test expected of it.
public struct ThreadProbeError: Error, CustomStringConvertible {
  public let description: String
}
