import Foundation
import Glibc
import Testing
import Wire

/// A resource the system refuses (here a thread, under the user's
/// `RLIMIT_NPROC`) refuses one connection, with an error to it and a log
/// line; the daemon serves on.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ThreadLimitTests {
  /// RLIMIT_NPROC counts every process and thread of a user, and does not
  /// hold for root: the daemon runs as a uid of its own, which only root can
  /// give it (as the test's own user, the other suites' processes would
  /// count too).
  @Test(.enabled(if: getuid() == 0, "needs root, to run the daemon as a user of its own"))
  func aThreadTheSystemRefusesRefusesOneConnectionAndTheDaemonServesOn() throws {
    let user = uid_t(60_000 + getpid() % 5_000)
    let measured = try DaemonProcess(user: user)
    try measured.waitForWorkers()
    let serving = Self.tasks(of: user)
    measured.stop()
    // Room for a few more threads than the daemon and its workers need to serve.
    let daemon = try DaemonProcess(user: user, processLimit: serving + 12)
    try daemon.waitForWorkers()

    var served: [RawConnection] = []
    var refusal: ServerMessage?
    while served.count < 100 {
      let connection = try RawConnection(daemon)
      try? connection.send(#"{"type":"hello","protocol":1,"client":"\#(served.count)"}"#)
      // Nil when the connection was closed or reset (the daemon is gone).
      let first = try? connection.read()
      guard case .welcome? = first else {
        refusal = first
        break
      }
      served.append(connection)
    }
    guard case .error(nil, .tooManyClients, let message)? = refusal else {
      let logTail = String(daemon.standardError.suffix(300))
      Issue.record(
        "expected too_many_clients once threads ran out, got \(String(describing: refusal)) after \(served.count) clients: \(logTail)"
      )
      return
    }
    #expect(message.contains("could not start the client-") && message.contains("try again later"), "\(message)")
    #expect(daemon.process.isRunning, "the daemon must serve on: \(daemon.standardError)")
    try waitUntil("the daemon logs the refusal") { daemon.standardError.contains("refused connection from pid") }
    // The clients served before go on.
    let first = try #require(served.first)
    try first.send(#"{"type":"status","id":1}"#)
    guard case .status(1, _)? = try first.read() else {
      Issue.record("a client served before the refusal must still be answered")
      return
    }
    // Their threads end with them, and a new client is served again.
    served.removeAll()
    try waitUntil("a new client is welcomed once the others have gone") {
      // Refused while the threads are still ending, it is closed at once.
      let connection = try RawConnection(daemon)
      try? connection.send(#"{"type":"hello","protocol":1}"#)
      if case .welcome? = try? connection.read() { return true }
      return false
    }
  }

  /// The processes and threads running as `user`.
  private static func tasks(of user: uid_t) -> Int {
    var count = 0
    for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(entry) != nil {
      guard let status = try? String(contentsOfFile: "/proc/\(entry)/status", encoding: .utf8) else { continue }
      let lines = status.split(separator: "\n")
      guard let uid = lines.first(where: { $0.hasPrefix("Uid:") })?.split(separator: "\t").dropFirst().first,
        uid == "\(user)",
        let threads = lines.first(where: { $0.hasPrefix("Threads:") })?.split(separator: "\t").last
      else { continue }
      count += Int(threads.trimmingCharacters(in: .whitespaces)) ?? 0
    }
    return count
  }
}
