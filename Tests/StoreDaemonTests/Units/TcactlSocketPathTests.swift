import Testing

@testable import tcactl

/// Where `tcactl` looks for the daemon when told nothing: the daemon's own
/// default for this user, or the system service's socket when only it exists.
@Suite struct TcactlSocketPathTests {
  @Test func theUsersOwnSocketComesFirst() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(
      Invocation.defaultSocketPath(environment: environment, exists: { _ in true })
        == "/run/user/1000/storedaemon/storedaemon.sock")
    #expect(
      Invocation.defaultSocketPath(environment: environment, exists: { _ in false })
        == "/run/user/1000/storedaemon/storedaemon.sock")
  }

  @Test func theSystemServicesSocketWhenTheUserRunsNone() {
    let environment = ["XDG_RUNTIME_DIR": "/run/user/1000"]
    #expect(
      Invocation.defaultSocketPath(environment: environment, exists: { $0 == "/run/storedaemon/storedaemon.sock" })
        == "/run/storedaemon/storedaemon.sock")
  }

  @Test func underSystemdTheServicesRuntimeDirectory() {
    #expect(
      Invocation.defaultSocketPath(environment: ["RUNTIME_DIRECTORY": "/run/storedaemon"], exists: { _ in false })
        == "/run/storedaemon/storedaemon.sock")
  }
}
