import Foundation
import Glibc
import TestSupport
import Testing

/// `tcactl watch` and `tcactl log --follow` on one socket go on across a
/// restart of the daemon: they say so on standard error, connect again
/// once it serves, and take up their stream after the last version shown,
/// none twice.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct ClientsRideOutRestartsTests {
  @Test func watchAndFollowResumeAfterTheDaemonRestarts() throws {
    let first = try DaemonProcess(arguments: ["--fsync", "always"])
    let watch = try BackgroundTcactl(
      ["watch", "counter"], socket: first.socketPath, outputPath: first.directory + "/watch.out",
      errorPath: first.directory + "/watch.err")
    let follow = try BackgroundTcactl(
      ["log", "--follow", "--since", "0"], socket: first.socketPath, outputPath: first.directory + "/log.out",
      errorPath: first.directory + "/log.err")
    try watch.waitForLine("the watched state") { $0.contains("\"count\": 0") }
    for _ in 0..<2 { _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: first.socketPath) }
    try watch.waitForLine("the second change") { $0.contains("~ /count: 1 → 2") }
    try follow.waitForLine("the second record") { $0.hasPrefix("v2 ") }

    #expect(first.stop() == 0)
    try waitUntil("both say the daemon went and that they connect again") {
      [watch, follow].allSatisfy { $0.errorLines.contains { $0.contains("; connecting again to ") } }
    }
    #expect(watch.process.isRunning && follow.process.isRunning)
    let second = try DaemonProcess(reusing: first, arguments: ["--fsync", "always"])
    _ = try tcactl(["send", "counter.incrementButtonTapped"], socket: second.socketPath)

    let watched = try watch.waitForLine("the change made after the restart") { $0.contains("~ /count: 2 → 3") }
    #expect(watched.contains("resuming after version 2 (epoch \(try second.client().epoch))"), "\(watched)")
    #expect(watched.filter { $0.contains("~ /count: 1 → 2") }.count == 1, "a change shown twice: \(watched)")
    #expect(watch.errorLines.contains { $0.hasPrefix("tcactl: connected to \(second.socketPath) at version ") })
    let logged = try follow.waitForLine("the record made after the restart") { $0.hasPrefix("v3 ") }
    #expect(logged.filter { $0.hasPrefix("v2 ") }.count == 1, "a record shown twice: \(logged)")
  }
}
