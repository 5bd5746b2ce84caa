import Platform
import Testing
import Wire

@testable import tcactl

/// Where a client (`tcactl`, the web client) looks for the daemon when told nothing: the daemon's own
/// default for this user, or the system service's socket when only it exists.
@Suite struct DaemonSocketPathTests {
  @Test func theUsersOwnSocketComesFirst() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(
      DaemonAddress.defaultSocketPath(environment: environment, exists: { _ in true })
        == "/run/user/1000/storedaemon/storedaemon.sock")
    #expect(
      DaemonAddress.defaultSocketPath(environment: environment, exists: { _ in false })
        == "/run/user/1000/storedaemon/storedaemon.sock")
  }

  @Test func theSystemServicesSocketWhenTheUserRunsNone() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(
      DaemonAddress.defaultSocketPath(environment: environment, exists: { $0 == "/run/storedaemon/storedaemon.sock" })
        == "/run/storedaemon/storedaemon.sock")
  }

  @Test func underSystemdTheServicesRuntimeDirectory() {
    #expect(
      DaemonAddress.defaultSocketPath(environment: ["RUNTIME_DIRECTORY": "/run/storedaemon"], exists: { _ in false })
        == "/run/storedaemon/storedaemon.sock")
  }

  @Test func anotherDaemonsNameNamesItsSockets() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(
      DaemonAddress.defaultSocketPath(app: "todosd", environment: environment, exists: { _ in false })
        == "/run/user/1000/todosd/todosd.sock")
    #expect(
      DaemonAddress.defaultSocketPath(
        app: "todosd", environment: environment, exists: { $0 == "/run/todosd/todosd.sock" })
        == "/run/todosd/todosd.sock")
    #expect(
      DaemonAddress.defaultSocketPath(
        app: "todosd", environment: ["RUNTIME_DIRECTORY": "/run/todosd"], exists: { _ in false })
        == "/run/todosd/todosd.sock")
  }

  @Test func theNameComesFromTheFlagThenTheEnvironment() throws {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000", "TCA_APP": "todosd"]
    #expect(
      try Invocation.parse(["status"], environment: environment).socketPath == "/run/user/1000/todosd/todosd.sock")
    #expect(
      try Invocation.parse(["status", "--app", "shop"], environment: environment).socketPath
        == "/run/user/1000/shop/shop.sock")
    #expect(
      try Invocation.parse(["status", "--app", "shop", "--socket", "/tmp/x.sock"], environment: environment).socketPath
        == "/tmp/x.sock")
    #expect(try Invocation.parse(["status"], environment: ["XDG_RUNTIME_DIR": "/run/u"]).app == "storedaemon")
  }

  @Test func aNameThatCannotNameAUnitIsAUsageError() {
    #expect(throws: UsageError.self) { try Invocation.parse(["status", "--app", "../etc"], environment: [:]) }
    #expect(throws: UsageError.self) { try Invocation.parse(["status", "--app", "Todos"], environment: [:]) }
    #expect(throws: UsageError.self) { try Invocation.parse(["status"], environment: ["TCA_APP": "a b"]) }
  }
}
