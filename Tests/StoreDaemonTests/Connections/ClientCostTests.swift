import Foundation
import Glibc
import Testing
import Wire

/// What a client costs the daemon: one event loop serves every connection,
/// so clients add buffers, not threads.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ClientCostTests {
  @Test func manyClientsAddNoThread() throws {
    let daemon = try DaemonProcess(arguments: ["--max-clients", "1000"])
    try daemon.waitForWorkers()
    let pid = daemon.process.processIdentifier
    let before = Self.threads(of: pid)
    var served: [RawConnection] = []
    for index in 0..<300 {
      let connection = try RawConnection(daemon)
      try connection.send(#"{"type":"hello","protocol":1,"client":"c\#(index)"}"#)
      guard case .welcome? = try connection.read() else {
        Issue.record("client \(index) was not welcomed: \(daemon.standardError.suffix(300))")
        return
      }
      served.append(connection)
    }
    let after = Self.threads(of: pid)
    // A thread pool of the system's may start one meanwhile; 300 clients
    // once took 600.
    #expect(after <= before + 4, "\(before) threads before 300 clients, \(after) with them")
    for connection in [served.first!, served.last!] {
      try connection.send(#"{"type":"status","id":1}"#)
      guard case .status(1, _)? = try connection.read() else {
        Issue.record("a connected client must be answered")
        return
      }
    }
  }

  /// The threads of process `pid`.
  static func threads(of pid: pid_t) -> Int {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") }),
      let count = line.split(separator: "\t").last.flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) })
    else { return 0 }
    return count
  }
}
