import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import StoreDaemon

/// An app's worker declarations, checked before the daemon starts: each
/// error names the kind, the path and why.
@Suite(.ownThreads) struct AppWorkerDeclarationTests {
  /// `prepare` of `workers` in a fresh state directory, beside a daemon in
  /// `daemonDirectory`; its error's description.
  func refusal(_ workers: [AppWorker], daemonDirectory: String = "/nonexistent") throws -> String {
    let state = try TemporaryDirectory()
    do {
      _ = try AppWorker.prepare(workers, daemonDirectory: daemonDirectory, stateDirectory: state.path)
    } catch {
      return error.description
    }
    throw ExampleWorkerError("\(workers) were accepted")
  }

  @Test(arguments: [
    ("Export", "it does not start with a lowercase letter"),
    ("ex port", "it has a character other than a-z, 0-9 and '-'"),
    ("", "it is empty"),
    (String(repeating: "x", count: 33), "it is too long"),
  ])
  func aBadKindNameIsRefusedWithTheRule(_ name: String, _ reason: String) throws {
    let message = try refusal([AppWorker(kind: WorkerKind(stringLiteral: name), executable: "/bin/true")])
    #expect(message.contains("invalid worker kind '\(name)': \(reason)"), "\(message)")
    #expect(message.contains("1 to 32 lowercase letters, digits and hyphens, starting with a letter"), "\(message)")
  }

  @Test func aBuiltInKindCannotBeDeclaredAgain() throws {
    let message = try refusal([AppWorker(kind: .timer, executable: "/bin/true")])
    #expect(
      message
        == "the app's worker for the kind 'timer': 'timer' is a built-in kind (timer, network, storage); "
        + "name the app's kind otherwise")
  }

  @Test func aKindDeclaredTwiceIsRefused() throws {
    let message = try refusal([
      AppWorker(kind: "export", executable: "/bin/true"), AppWorker(kind: "export", executable: "/bin/false"),
    ])
    #expect(
      message == "the app's worker for the kind 'export': the kind 'export' is declared twice; declare each kind once")
  }

  @Test func aMissingProgramIsNamedWithItsResolvedPath() throws {
    let message = try refusal([AppWorker(kind: "email", executable: "send-mail")], daemonDirectory: "/opt/app/bin")
    #expect(
      message == "the app's worker for the kind 'email': cannot run '/opt/app/bin/send-mail': No such file or directory"
    )
  }

  @Test func aProgramWithoutItsExecutableBitIsRefused() throws {
    let directory = try TemporaryDirectory()
    let script = directory.appending("worker")
    try "#!/bin/sh\n".write(toFile: script, atomically: false, encoding: .utf8)
    #expect(chmod(script, 0o644) == 0)
    let message = try refusal([AppWorker(kind: "export", executable: script)])
    // As root, access(X_OK) still wants an execute bit on a regular file.
    #expect(message.contains("cannot run '\(script)': Permission denied (is its executable bit set?)"), "\(message)")
  }

  @Test func aRelativeProgramIsFoundBesideTheDaemonAndGetsItsDirectory() throws {
    let daemon = try TemporaryDirectory()
    let state = try TemporaryDirectory()
    let script = daemon.appending("exporter")
    try "#!/bin/sh\n".write(toFile: script, atomically: false, encoding: .utf8)
    #expect(chmod(script, 0o755) == 0)
    let prepared = try AppWorker.prepare(
      [AppWorker(kind: "export", executable: "exporter", arguments: ["-v"])], daemonDirectory: daemon.path,
      stateDirectory: state.path)
    #expect(prepared == [AppWorker(kind: "export", executable: script, arguments: ["-v"])])
    var info = stat()
    #expect(stat(state.appending("workers/export"), &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700)
  }
}
