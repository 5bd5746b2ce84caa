import Glibc
import Testing

@testable import StoreDaemon

/// `$NOTIFY_SOCKET` and `$WATCHDOG_USEC` as the notifier reads them.
@Suite struct ServiceNotifierTests {
  @Test func pathAndAbstractAddresses() throws {
    let offset = UnixSocketAddress.pathOffset
    let path = try #require(ServiceNotifier.socketAddress("/run/systemd/notify"))
    #expect(Array(path[offset...]) == Array("/run/systemd/notify".utf8) + [0])
    let abstract = try #require(ServiceNotifier.socketAddress("@sd-notify"))
    #expect(Array(abstract[offset...]) == [0] + Array("sd-notify".utf8))
    #expect(ServiceNotifier.socketAddress("relative/path") == nil)
    #expect(ServiceNotifier.socketAddress("") == nil)
    #expect(ServiceNotifier.socketAddress("/" + String(repeating: "x", count: 200)) == nil)
  }

  @Test func theWatchdogIsPingedAtHalfItsTimeoutForThisProcessOnly() {
    #expect(ServiceNotifier(environment: ["WATCHDOG_USEC": "30000000"], pid: 7).watchdogInterval == .seconds(15))
    #expect(
      ServiceNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "7"], pid: 7).watchdogInterval
        == .seconds(15))
    #expect(
      ServiceNotifier(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "8"], pid: 7).watchdogInterval == nil)
    #expect(ServiceNotifier(environment: ["WATCHDOG_USEC": "0"], pid: 7).watchdogInterval == nil)
    #expect(ServiceNotifier(environment: [:], pid: 7).watchdogInterval == nil)
    #expect(!ServiceNotifier(environment: [:]).isEnabled)
  }

  @Test func aStatusIsOneLine() {
    #expect(ServiceNotifier.status("version 1\nworkers") == "STATUS=version 1 workers")
  }
}
