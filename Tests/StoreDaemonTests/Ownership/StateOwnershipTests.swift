import Foundation
import Glibc
import TestSupport
import Testing

/// The state directory and the settings file in it decide what the daemon
/// starts from and where its features send requests: like the socket's
/// directory, they are refused when another user could change them.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct StateOwnershipTests {
  @Test func aStateDirectoryOthersMayWriteToIsRefused() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-state")
    let state = scratch.appending("state")
    #expect(mkdir(state, 0o777) == 0 && chmod(state, 0o777) == 0)
    let socket = scratch.appending("run/s.sock")
    let start = try RefusedStart(["--socket", socket, "--state-dir", state], socket: socket)
    #expect(start.status == 70, "\(start.standardError)")
    #expect(
      start.standardError.contains("state directory failed for \(state): others may write to it (mode 0777"),
      "\(start.standardError)")
  }

  @Test(.enabled(if: geteuid() == 0, "giving a directory to another user needs root"))
  func aStateDirectoryOfAnotherUserIsRefused() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-state")
    let state = scratch.appending("state")
    #expect(mkdir(state, 0o700) == 0 && chown(state, 65534, 65534) == 0)
    let socket = scratch.appending("run/s.sock")
    let start = try RefusedStart(["--socket", socket, "--state-dir", state], socket: socket)
    #expect(start.status == 70, "\(start.standardError)")
    #expect(
      start.standardError.contains("state directory failed for \(state): it belongs to"), "\(start.standardError)")
    #expect(start.standardError.contains("(uid 65534)"), "\(start.standardError)")
  }

  @Test func aSettingsFileOthersMayWriteToIsRefused() throws {
    let (scratch, state, socket) = try Self.stateDirectory()
    let settings = state + "/storedaemon.conf"
    try "dice-roll = 0\n".write(toFile: settings, atomically: true, encoding: .utf8)
    #expect(chmod(settings, 0o666) == 0)
    let start = try RefusedStart(["--socket", socket, "--state-dir", state], socket: socket)
    withExtendedLifetime(scratch) {}
    #expect(start.status == 64, "\(start.standardError)")
    #expect(
      start.standardError.contains(
        "the settings file '\(settings)' may be written by others (mode 0666), so it was not read"),
      "\(start.standardError)")
  }

  @Test(.enabled(if: geteuid() == 0, "giving a file to another user needs root"))
  func aSettingsFileOfAnotherUserIsRefused() throws {
    let (scratch, state, socket) = try Self.stateDirectory()
    let settings = state + "/storedaemon.conf"
    try "dice-roll = 0\n".write(toFile: settings, atomically: true, encoding: .utf8)
    #expect(chmod(settings, 0o600) == 0 && chown(settings, 65534, 65534) == 0)
    let start = try RefusedStart(["--socket", socket, "--state-dir", state], socket: socket)
    withExtendedLifetime(scratch) {}
    #expect(start.status == 64, "\(start.standardError)")
    #expect(
      start.standardError.contains("the settings file '\(settings)' belongs to nobody (uid 65534)"),
      "\(start.standardError)")
  }

  /// A FIFO is never opened for reading in a way that waits for a writer.
  @Test func aSettingsFileThatIsAFIFOIsRefusedWithoutBlocking() throws {
    let (scratch, state, socket) = try Self.stateDirectory()
    let settings = state + "/storedaemon.conf"
    #expect(mkfifo(settings, 0o600) == 0)
    let start = try RefusedStart(["--socket", socket, "--state-dir", state], socket: socket)
    withExtendedLifetime(scratch) {}
    #expect(start.status == 64, "\(start.standardError)")
    #expect(
      start.standardError.contains("the settings file '\(settings)' is not a regular file"), "\(start.standardError)")
  }

  /// A private state directory in a fresh scratch directory, and a socket path beside it.
  private static func stateDirectory() throws -> (TemporaryDirectory, state: String, socket: String) {
    let scratch = try TemporaryDirectory(prefix: "sd-state")
    let state = scratch.appending("state")
    #expect(mkdir(state, 0o700) == 0)
    return (scratch, state, scratch.appending("run/s.sock"))
  }
}
