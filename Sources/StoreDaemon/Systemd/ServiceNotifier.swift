import Dispatch
import Glibc
import Synchronization

/// Tells the service manager how the daemon is doing: the sd_notify(3)
/// protocol, written from its documentation, as no library may be used.
///
/// A message is one datagram of newline-separated `NAME=value` fields, sent
/// to the `AF_UNIX` socket named by `$NOTIFY_SOCKET`: a path, or an abstract
/// name written `@name`. Without `$NOTIFY_SOCKET` (not run by systemd) every
/// call does nothing. Failures are ignored, as sd_notify's callers do: the
/// daemon serves whether or not anyone listens. A send never waits: the
/// store loop sends its status and watchdog pings itself, and a socket
/// nobody reads fills after a few datagrams (`net.unix.max_dgram_qlen`, 10
/// by default); a status or ping it has no room for is dropped, and the
/// first drop is logged. A message that changes the service's state
/// (`READY=1`, `RELOADING=1`, `STOPPING=1`, a start timeout's extension)
/// waits for room for up to ``lifecycleWait`` first (the socket's send
/// timeout), as a busy manager may still read it.
///
/// The datagram socket is created once and only sent on, so one notifier is
/// shared by every thread.
final class ServiceNotifier: Sendable {
  /// The socket's address, as `sockaddr_un` bytes; nil when not notifying.
  private let address: [UInt8]?
  private let descriptor: Int32
  /// How often the watchdog must be pinged: half of `$WATCHDOG_USEC`, as
  /// sd_watchdog_enabled(3) advises; nil when the watchdog is off or meant
  /// for another process (`$WATCHDOG_PID`).
  let watchdogInterval: Duration?
  private let hasDropped = Mutex(false)

  /// A notifier for what the environment says: `NOTIFY_SOCKET`,
  /// `WATCHDOG_USEC` and `WATCHDOG_PID`.
  init(environment: [String: String], pid: pid_t = getpid()) {
    address = environment["NOTIFY_SOCKET"].flatMap(Self.socketAddress)
    descriptor = address == nil ? -1 : socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    if descriptor >= 0 {
      // How long a send that may wait does (one without MSG_DONTWAIT).
      let (seconds, attoseconds) = Self.lifecycleWait.components
      var timeout = timeval(tv_sec: Int(seconds), tv_usec: Int(attoseconds / 1_000_000_000_000))
      _ = setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }
    if let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0,
      environment["WATCHDOG_PID"].map({ pid_t($0) == pid }) ?? true
    {
      watchdogInterval = .microseconds(usec / 2)
    } else {
      watchdogInterval = nil
    }
  }

  deinit {
    if descriptor >= 0 { close(descriptor) }
  }

  /// Whether messages go anywhere.
  var isEnabled: Bool { address != nil && descriptor >= 0 }

  /// How long a message that changes the service's state waits for room.
  static let lifecycleWait: Duration = .seconds(1)

  /// Sends the fields (e.g. `["READY=1", "STATUS=serving"]`) as one message.
  func notify(_ fields: [String]) {
    guard isEnabled else { return }
    let changesState = fields.contains { !$0.hasPrefix("STATUS=") && $0 != "WATCHDOG=1" }
    if !send(Array(fields.joined(separator: "\n").utf8), waiting: changesState) { noteDropped(fields) }
  }

  /// Sends `message`, waiting for room up to ``lifecycleWait`` if asked to,
  /// else not at all; false only when the socket had no room (any other
  /// failure is ignored, as sd_notify's callers do).
  private func send(_ message: [UInt8], waiting: Bool) -> Bool {
    guard let address else { return true }
    return address.withUnsafeBytes { addressBytes in
      message.withUnsafeBytes { bytes in
        let sent = sendto(
          descriptor, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | (waiting ? 0 : MSG_DONTWAIT)),
          // invariant: the bytes of a sockaddr_un, never empty
          addressBytes.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(addressBytes.count))
        return !(sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
      }
    }
  }

  /// Logs the first message dropped for want of room.
  private func noteDropped(_ fields: [String]) {
    let first = hasDropped.withLock { dropped in
      defer { dropped = true }
      return !dropped
    }
    guard first else { return }
    Log.warning(
      "the notification socket (NOTIFY_SOCKET) is full, so nothing reads it; dropped "
        + "'\(fields.joined(separator: " "))' rather than wait longer, and will drop what else finds no room "
        + "without saying so"
    )
  }

  /// The longest a start-up step is given more time: a recovery still
  /// running after this is taken as hung, and `TimeoutStartSec=` applies.
  static let maximumExtension: Duration = .seconds(600)

  /// Runs `body`, a start-up step that may take long (recovering a large
  /// journal), while asking systemd every 5 seconds for 30 seconds more
  /// (`EXTEND_TIMEOUT_USEC=`), for at most ``maximumExtension``, so a long
  /// start is not killed by `TimeoutStartSec=`; `status` says what is going
  /// on meanwhile.
  func extendingStartTimeout<T, E: Error>(status: String, _ body: () throws(E) -> T) throws(E) -> T {
    guard isEnabled else { return try body() }
    notify([Self.status(status), "EXTEND_TIMEOUT_USEC=30000000"])
    let timer = DispatchSource.makeTimerSource(queue: .global())
    let until = ContinuousClock.now + Self.maximumExtension
    timer.schedule(deadline: .now() + .seconds(5), repeating: .seconds(5))
    timer.setEventHandler { [self] in
      if ContinuousClock.now < until { notify(["EXTEND_TIMEOUT_USEC=30000000"]) }
    }
    timer.resume()
    defer { timer.cancel() }
    return try body()
  }

  /// A `STATUS=` field: one line, as systemctl shows it.
  static func status(_ text: String) -> String {
    "STATUS=" + text.replacing("\n", with: " ")
  }

  /// The `sockaddr_un` bytes for `$NOTIFY_SOCKET`: a path, or `@name` for an
  /// abstract socket (a leading NUL in place of the `@`, and no terminator).
  static func socketAddress(_ value: String) -> [UInt8]? {
    let pathBytes = Array(value.utf8)
    guard let first = pathBytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
    let abstract = first == UInt8(ascii: "@")
    // A path needs room for its terminating NUL; an abstract name does not.
    guard pathBytes.count <= UnixSocketAddress.maximumPathLength - (abstract ? 0 : 1) else { return nil }
    var name = pathBytes
    if abstract { name[0] = 0 }
    var bytes = [UInt8](repeating: 0, count: UnixSocketAddress.pathOffset)
    withUnsafeBytes(of: sa_family_t(AF_UNIX)) { bytes.replaceSubrange(0..<$0.count, with: $0) }
    bytes += name
    if !abstract { bytes.append(0) }
    return bytes
  }
}

/// The layout of `sockaddr_un`.
enum UnixSocketAddress {
  // invariant: sun_path is a stored property of sockaddr_un, which has an offset
  static let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
  static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path)
}
