import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing
import Wire

/// SIGHUP (`systemctl reload storedaemon`) reads the settings file again
/// without dropping a client; a file that does not parse keeps the settings
/// in use.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2)))
struct ReloadTests {
  @Test func sighupReadsTheSettingsFileAgainWithoutDroppingClients() throws {
    let first = try FakeSeedAPI()
    let second = try FakeSeedAPI()
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let settings = directory.appending("storedaemon.conf")
    try "store-api = \(first.storeAPIBaseURL)\n".write(toFile: settings, atomically: true, encoding: .utf8)
    let daemon = try DaemonProcess(arguments: ["--config", settings], environment: ["NOTIFY_SOCKET": notify.name])
    _ = try notify.waitFor("READY=1")
    let watcher = try daemon.client("watcher")
    try watcher.subscribe(path: "/counter")
    _ = try watcher.nextMessage()

    try "store-api = \(second.storeAPIBaseURL)\n".write(toFile: settings, atomically: true, encoding: .utf8)
    kill(daemon.pid, SIGHUP)
    _ = try notify.waitFor("RELOADING=1")
    _ = try notify.waitFor("READY=1")
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: eventTimeout)
    #expect(second.requests(to: .products).count == 1)
    #expect(first.requests(to: .products).isEmpty)
    #expect(
      daemon.standardError.contains(
        "reloaded the feature settings from \(settings): store-api = \(second.storeAPIBaseURL)"))

    // A broken file is reported; the settings in use stay.
    try "store-api = nowhere\n".write(toFile: settings, atomically: true, encoding: .utf8)
    kill(daemon.pid, SIGHUP)
    _ = try notify.waitFor("RELOADING=1")
    _ = try notify.waitFor("READY=1")
    #expect(daemon.standardError.contains("reload: \(settings):1:"))
    _ = try client.sendAndWait(path: "profile.fetchProfile", timeout: eventTimeout)
    #expect(second.requests(to: .user).count == 1)

    // The watcher was never dropped.
    _ = try client.send(path: "counter.incrementButtonTapped")
    let diff = try nextMessage(from: watcher) { if case .diff = $0 { true } else { false } }
    guard case .diff(_, _, let summary, _) = diff else { return }
    #expect(summary == "counter.incrementButtonTapped")
    #expect(daemon.stop() == 0)
  }

  /// A settings file others may write to could have been written by anyone:
  /// it is not read, and the settings in use stay.
  @Test func sighupKeepsTheSettingsWhenOthersMayWriteTheFile() throws {
    let first = try FakeSeedAPI()
    let second = try FakeSeedAPI()
    let directory = try TemporaryDirectory()
    let notify = try FakeNotifySocket(path: directory.appending("notify"))
    let settings = directory.appending("storedaemon.conf")
    try "store-api = \(first.storeAPIBaseURL)\n".write(toFile: settings, atomically: true, encoding: .utf8)
    let daemon = try DaemonProcess(arguments: ["--config", settings], environment: ["NOTIFY_SOCKET": notify.name])
    _ = try notify.waitFor("READY=1")

    try "store-api = \(second.storeAPIBaseURL)\n".write(toFile: settings, atomically: true, encoding: .utf8)
    #expect(chmod(settings, 0o646) == 0)
    kill(daemon.pid, SIGHUP)
    _ = try notify.waitFor("RELOADING=1")
    _ = try notify.waitFor("READY=1")
    #expect(
      daemon.standardError.contains(
        "reload: the settings file '\(settings)' may be written by others (mode 0646), so it was not read"),
      "\(daemon.standardError)")
    #expect(daemon.standardError.contains("the settings in use are kept"))
    let client = try daemon.client()
    _ = try client.sendAndWait(path: "products.fetchProducts", timeout: eventTimeout)
    #expect(first.requests(to: .products).count == 1)
    #expect(second.requests(to: .products).isEmpty)
    #expect(daemon.stop() == 0)
  }

  /// A SIGHUP sent before the daemon has set up its handling (here kept
  /// pending by a parent that spawned it with SIGHUP blocked) does not end
  /// it: SIGHUP is ignored before any signal is let in.
  @Test func aSighupBeforeTheDaemonIsReadyDoesNotEndIt() throws {
    let directory = try TemporaryDirectory()
    let socket = directory.appending("s.sock")
    let daemon = try SpawnedProcess(
      [
        DaemonProcess.productsDirectory.appendingPathComponent("storedaemon").path, "--socket", socket, "--state-dir",
        directory.appending("state"),
      ], output: directory.appending("output"), blockedSignals: [SIGHUP])
    kill(daemon.pid, SIGHUP)
    try waitUntil("the daemon serves, or has ended") {
      guard daemon.isRunning else { return true }
      return (try? WireClient(path: socket, clientName: "probe").close()) != nil
    }
    let output = (try? String(contentsOfFile: directory.appending("output"), encoding: .utf8)) ?? ""
    #expect(daemon.isRunning, "the early SIGHUP ended the daemon: \(output)")
    #expect(daemon.stop() == 0)
  }
}
