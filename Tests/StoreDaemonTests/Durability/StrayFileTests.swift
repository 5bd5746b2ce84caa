import Foundation
import Glibc
import JSON
import Testing

/// Something in the journal directory named like a segment or a snapshot
/// that is not a regular file: the start is refused at once, naming it,
/// instead of waiting for ever to open a FIFO.
@Suite(.serialized, .timeLimit(.minutes(3)))
struct StrayFileTests {
  enum Stray: String, CaseIterable {
    case fifo, directory, symbolicLink

    var kind: String {
      switch self {
      case .fifo: "a FIFO"
      case .directory: "a directory"
      case .symbolicLink: "a symbolic link"
      }
    }

    func make(_ path: String, pointingAt target: String) -> Bool {
      switch self {
      case .fifo: mkfifo(path, 0o600) == 0
      case .directory: mkdir(path, 0o700) == 0
      case .symbolicLink: symlink(target, path) == 0
      }
    }
  }

  static let cases = Stray.allCases.flatMap { stray in
    ["00000000000000000099.journal", "snapshot-00000000000000000099.snapshot"].map { (stray, $0) }
  }

  @Test(arguments: cases)
  func aStrayNamedLikeAJournalFileIsNamedAndRefused(_ stray: Stray, _ name: String) throws {
    let daemon = try DaemonProcess()
    _ = try daemon.client().send(path: "counter.incrementButtonTapped")
    #expect(daemon.stop() == 0)
    let journal = daemon.stateDirectory + "/journal"
    let real = try #require(
      try FileManager.default.contentsOfDirectory(atPath: journal).first { $0.hasSuffix(".journal") })
    let path = journal + "/" + name
    #expect(stray.make(path, pointingAt: journal + "/" + real))

    #expect {
      try DaemonProcess(reusing: daemon)
    } throws: { error in
      let text = "\(error)"
      return text.contains("status 65")
        && text.contains("open of \(path) failed: it is \(stray.kind), not a regular file")
    }
    // Once it is gone, the daemon starts as before.
    #expect(stray == .directory ? rmdir(path) == 0 : unlink(path) == 0)
    let restarted = try DaemonProcess(reusing: daemon)
    #expect(try restarted.client().get(path: "/counter/count").value == .int(1))
  }

  /// A FIFO among the storage worker's documents: the history's load fails
  /// at once naming it, rather than when the worker, blocked opening it,
  /// misses its pings or the request's deadline.
  @Test func aFIFOAmongTheStoredDocumentsFailsTheLoadAtOnceNamingIt() throws {
    // No ping can end the load; the storage request's own deadline (30 s)
    // is far beyond an answer that does not wait.
    let daemon = try DaemonProcess(arguments: ["--worker-timeout", "3600"])
    try daemon.waitForWorkers()
    let namespace = daemon.stateDirectory + "/storage/bmi-history"
    #expect(mkdir(namespace, 0o700) == 0 || errno == EEXIST)
    let fifo = namespace + "/fifo"
    #expect(mkfifo(fifo, 0o600) == 0)
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "bmi.history.onAppear", timeout: eventTimeout)
    guard case .string(let message) = try client.get(path: "/bmi/history/errorMessage").value else {
      Issue.record("the load did not fail: \(try client.get(path: "/bmi/history").value)")
      return
    }
    #expect(message.hasPrefix("Could not load the history."), "\(message)")
    // The worker's reason, naming the file, is in the failure the log keeps.
    let failed = try client.log(since: nil, last: 10).records.last { $0.summary.hasPrefix("bmi.history.loadFailed") }
    #expect(
      failed.map { CanonicalJSON.text($0.action).contains("\(fifo): it is not a regular file") } == true,
      "\(String(describing: failed))")
  }
}
