import ComposableCore
import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Wire

/// Nothing a client sends costs the store loop more than a small, bounded
/// amount: what the daemon examines of a request (its path, its arguments,
/// how deep its JSON nests, the client's name) is bounded before the loop
/// sees it, and over-long input is refused with an error naming the limit.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct InputCostTests {
  /// A 60 KB unknown name: the "did you mean" search once cost the loop
  /// about 0.5 ms per character.
  static let longName = String(repeating: "q", count: 60_000)
  /// A 500-level nested argument: reading it once cost the loop seconds.
  static let deepArgument = String(repeating: "[", count: 500) + String(repeating: "]", count: 500)
  /// An enumeration's value of 900 KB: its suggestions once cost the loop 20 s.
  static let hugeWord = String(repeating: "x", count: 900_000)

  @Test func anOverlongActionPathIsRefusedNamingTheLimit() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    try raw.send(#"{"type":"send","id":1,"path":"\#(Self.longName)"}"#)
    guard case .error(1, .invalidMessage, let message)? = try raw.read() else {
      Issue.record("a 60 KB path must be refused as an invalid message")
      return
    }
    #expect(message == "'send': 'path' is 60000 bytes; at most 1024 are accepted")
    // A state path too.
    try raw.send(#"{"type":"get","id":3,"path":"\#(String(repeating: "/a", count: 400_000))"}"#)
    #expect(
      try raw.read()
        == .error(id: 3, code: .invalidMessage, message: "'get': 'path' is 800000 bytes; at most 1024 are accepted"))
    try raw.send(#"{"type":"send","id":2,"path":"counter.incrementButtonTapped"}"#)
    #expect(try raw.read() == .ack(id: 2, version: 1))
  }

  @Test func anOverlongSendIsRefusedNamingTheLimit() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.hello()
    let send = #"{"type":"send","id":1,"path":"tabSelected","arguments":["\#(Self.hugeWord)"]}"#
    try raw.send(send)
    guard case .error(1, .invalidMessage, let message)? = try raw.read() else {
      Issue.record("a 900 KB argument must be refused as an invalid message")
      return
    }
    #expect(message == "'send' is \(send.utf8.count) bytes; at most 8192 are accepted")
    // An action as JSON too: a binding's value of 600 KB once cost the loop seconds.
    let ones = Array(repeating: "1", count: 300_000).joined(separator: ",")
    try raw.send(
      #"{"type":"send","id":2,"action":{"bmi":{"input":{"binding":{"field":"height","value":[\#(ones)]}}}}}"#
    )
    guard case .error(2, .invalidMessage, let jsonMessage)? = try raw.read() else {
      Issue.record("a 600 KB action must be refused as an invalid message")
      return
    }
    #expect(jsonMessage.hasSuffix("bytes; at most 8192 are accepted"), "\(jsonMessage)")
  }

  @Test func deeplyNestedJSONIsRefusedNamingTheLimit() throws {
    let daemon = try LoopDaemon(arguments: ["--allow-internal-actions"])
    let raw = try RawConnection(daemon)
    try raw.hello()
    // As an argument, which is a string in the frame.
    try raw.send(#"{"type":"send","id":1,"path":"products.productsResponse","arguments":["\#(Self.deepArgument)"]}"#)
    guard case .error(1, .invalidMessage, let message)? = try raw.read() else {
      Issue.record("a 500-level argument must be refused as an invalid message")
      return
    }
    #expect(message == "'send': argument 1 nests arrays and objects 500 levels deep; at most 64 are accepted")
    // As the frame's own JSON.
    try raw.send(
      #"{"type":"send","id":2,"action":{"products":{"productsResponse":\#(Self.deepArgument)}}}"#)
    guard case .error(nil, .invalidJSON, let frameMessage)? = try raw.read() else {
      Issue.record("a 500-level frame must be refused as invalid JSON")
      return
    }
    #expect(frameMessage.contains("nested deeper than 64 levels"), "\(frameMessage)")
    try raw.send(#"{"type":"send","id":3,"path":"counter.incrementButtonTapped"}"#)
    #expect(try raw.read() == .ack(id: 3, version: 1))
  }

  @Test func anOverlongClientNameIsRefusedNamingTheLimit() throws {
    let daemon = try LoopDaemon()
    let raw = try RawConnection(daemon)
    try raw.send(#"{"type":"hello","protocol":1,"client":"\#(String(repeating: "n", count: 1_000_000))"}"#)
    let messages = try raw.readUntilClosed()
    #expect(
      messages.first
        == .error(id: nil, code: .handshake, message: "'hello': 'client' is 1000000 bytes; at most 256 are accepted"))
    // A name at the limit is welcome, and is what the journal records.
    let name = String(repeating: "n", count: 256)
    let client = try daemon.client(name)
    _ = try client.send(path: "counter.incrementButtonTapped")
    let records = try client.log(since: nil, last: 1).records
    #expect(records.first?.origin[path: "client"] == .string(name))
  }

  /// Large frames from several clients at once, each made of many small
  /// JSON values: once they are handled, the daemon gives back what they
  /// took (it once kept 200 MB of a 20 MB daemon).
  @Test func theMemoryOfLargeInputIsGivenBack() throws {
    let daemon = try DaemonProcess()
    let baseline = try Self.residentBytes(of: daemon.pid)
    // Members the daemon does not know are ignored, once parsed.
    let junk = "[" + Array(repeating: #"{"a":[1]}"#, count: 100_000).joined(separator: ",") + "]"
    let frames = try [
      #"{"type":"status","id":1,"ignored":\#(junk)}"#,
      #"{"type":"launch","id":2,"ignored":\#(junk)}"#,
    ].map { try FrameEncoder.frame(Array($0.utf8)) }
    let connections = try (0..<8).map { _ in try RawConnection(daemon) }
    for connection in connections { try connection.hello() }
    // Every connection's frame in flight at once, read by its own thread.
    for frame in frames + frames {
      for connection in connections { try connection.write(frame) }
      for connection in connections {
        guard try connection.read() != nil else { throw DaemonTestError("expected an answer") }
      }
    }
    withExtendedLifetime(connections) {}
    let bound = baseline + 32 << 20
    var resident = 0
    try waitUntil("the daemon's memory falls back to \(bound >> 20) MiB; it holds \(resident >> 20) MiB") {
      resident = try Self.residentBytes(of: daemon.pid)
      return resident <= bound
    }
  }

  /// The resident memory of process `pid` (`VmRSS`), in bytes.
  static func residentBytes(of pid: pid_t) throws -> Int {
    let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
    guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
      let kilobytes = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { throw DaemonTestError("no VmRSS in /proc/\(pid)/status") }
    return kilobytes * 1024
  }

  /// A flood of the worst inputs from several connections, pipelined: the
  /// watchdog pings keep their rhythm and no worker misses a ping. The
  /// limits are the test's own (10 s each); each of these inputs once cost
  /// the loop from 2 to 20 seconds.
  @Test func aFloodOfTheWorstInputsKeepsTheWatchdogAndTheWorkersOnTime() throws {
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let daemon = try DaemonProcess(
      arguments: ["--worker-timeout", "10", "--allow-internal-actions"],
      environment: ["NOTIFY_SOCKET": notify.name, "WATCHDOG_USEC": "10000000"])
    _ = try notify.waitFor("READY=1")
    try daemon.waitForWorkers()
    let bystander = try daemon.client("bystander")

    let worst = [
      #"{"type":"send","id":1,"path":"\#(Self.longName)"}"#,
      #"{"type":"send","id":2,"path":"tabSelected","arguments":["\#(Self.hugeWord)"]}"#,
      #"{"type":"send","id":3,"path":"products.productsResponse","arguments":["\#(Self.deepArgument)"]}"#,
      // Just inside the limits: the longest path, the deepest argument,
      // the longest enumeration word.
      #"{"type":"send","id":4,"path":"\#(String(repeating: "q", count: 1024))"}"#,
      #"{"type":"send","id":5,"path":"products.productsResponse","arguments":["\#(String(repeating: "[", count: 64) + String(repeating: "]", count: 64))"]}"#,
      #"{"type":"send","id":6,"path":"tabSelected","arguments":["\#(String(repeating: "x", count: 8_000))"]}"#,
    ]
    let rounds = 6
    let flooders = try (0..<4).map { _ in try RawConnection(daemon) }
    for flooder in flooders { try flooder.hello() }
    let writers = DispatchGroup()
    for flooder in flooders {
      let socket = flooder.socket
      DispatchQueue.global().async(group: writers) {
        for _ in 0..<rounds {
          for frame in worst { try? socket.write(FrameEncoder.frame(Array(frame.utf8))) }
        }
      }
    }
    // The bystander is answered while the flood goes on.
    _ = try bystander.send(path: "counter.incrementButtonTapped")
    for flooder in flooders {
      for _ in 0..<(rounds * worst.count) {
        guard case .error? = try flooder.read() else {
          Issue.record("every input of the flood must be answered with an error")
          return
        }
      }
    }
    writers.wait()
    let floodEnded = wallClockNow()
    _ = try bystander.send(path: "counter.incrementButtonTapped")

    var pings: [Duration] { notify.received.filter { $0.fields.contains("WATCHDOG=1") }.map(\.sentAt).sorted() }
    while (pings.last ?? .zero) <= floodEnded { _ = try notify.waitFor("WATCHDOG=1") }
    let gaps = zip(pings.dropFirst(), pings).map { $0 - $1 }
    #expect(gaps.allSatisfy { $0 < .seconds(10) }, "a gap between watchdog pings passed WatchdogSec: \(gaps)")
    for (kind, worker) in try daemon.workers() {
      #expect(worker["restarts"] == .int(0), "the \(kind) worker was restarted: \(worker)")
    }
    #expect(!daemon.standardError.contains("has not answered a ping"), "\(daemon.standardError)")
  }
}
