import Foundation
import Glibc
import TestSupport
import Testing

/// `scripts/install.sh --app NAME` for a hosted app's daemon: the same units,
/// named after the app, with the app's own workers beside it, and an
/// uninstall that leaves the programs another daemon still runs from.
@Suite(.ownThreads, .timeLimit(.minutes(3)))
struct HostedAppInstallTests {
  /// A build of a hosted app: its daemon `todosd` (here storedaemon's binary
  /// under that name: only the files are checked), the shared programs, and a
  /// worker of its own.
  private static func appBuild(in scratch: TemporaryDirectory) throws -> (binaries: String, worker: String) {
    let binaries = scratch.appending("app-build")
    try FileManager.default.createDirectory(atPath: binaries, withIntermediateDirectories: true)
    for program in ["effectworker", "effectworker-network", "tcactl", "tcaweb"] {
      try FileManager.default.copyItem(atPath: Installer.products + "/" + program, toPath: binaries + "/" + program)
    }
    try FileManager.default.copyItem(atPath: Installer.products + "/storedaemon", toPath: binaries + "/todosd")
    let worker = scratch.appending("todos-export")
    try "#!/bin/sh\nexit 0\n".write(toFile: worker, atomically: false, encoding: .utf8)
    #expect(chmod(worker, 0o755) == 0)
    return (binaries, worker)
  }

  @Test func theUnitsUserAndDirectoriesAreNamedAfterTheApp() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-hosted")
    let stage = scratch.appending("stage")
    let build = try Self.appBuild(in: scratch)
    let install = try Installer.run(
      ["--app", "todosd", "--worker", build.worker, "--destdir", stage, "--binaries", build.binaries], in: scratch)
    try #require(install.status == 0, "install.sh failed: \(install.error)")
    let prefix = stage + "/usr/local"
    for program in ["todosd", "effectworker", "effectworker-network", "tcactl", "tcaweb", "todos-export"] {
      #expect(access(prefix + "/bin/" + program, X_OK) == 0, "\(program) was not installed executable")
    }
    #expect(!FileManager.default.fileExists(atPath: prefix + "/bin/storedaemon"))

    let service = try UnitFile(path: prefix + "/lib/systemd/system/todosd.service")
    let socket = try UnitFile(path: prefix + "/lib/systemd/system/todosd.socket")
    let userService = try UnitFile(path: prefix + "/lib/systemd/user/todosd.service")
    let userSocket = try UnitFile(path: prefix + "/lib/systemd/user/todosd.socket")
    #expect(service.execStart == ["/usr/local/bin/todosd", "--allow-group", "todosd", "--max-clients", "512"])
    #expect(userService.execStart?.first == "/usr/local/bin/todosd")
    #expect(service["Unit", "Requires"] == "todosd.socket")
    #expect(service["Service", "User"] == "todosd")
    #expect(service["Service", "Group"] == "todosd")
    #expect(service["Service", "RuntimeDirectory"] == "todosd")
    #expect(service["Service", "StateDirectory"] == "todosd")
    #expect(socket["Socket", "ListenStream"] == "/run/todosd/todosd.sock")
    #expect(socket["Socket", "FileDescriptorName"] == "todosd")
    #expect(socket["Socket", "SocketGroup"] == "todosd")
    #expect(userSocket["Socket", "ListenStream"] == "%t/todosd/todosd.sock")
    let sysusers = try String(contentsOfFile: prefix + "/lib/sysusers.d/todosd.conf", encoding: .utf8)
    #expect(sysusers.split(separator: "\n").contains { $0.hasPrefix("u todosd ") }, "\(sysusers)")
    // Nothing of the template's placeholders is left in what was rendered.
    for file in try regularFiles(under: prefix + "/lib") {
      let text = try String(contentsOfFile: file, encoding: .utf8)
      #expect(!text.contains("@NAME@") && !text.contains("@BINDIR@") && !text.contains("@DOCDIR@"), "\(file)")
      #expect(!text.contains("storedaemon.") && !text.contains("/storedaemon"), "\(file) still names storedaemon")
    }
  }

  @Test func aUserInstallSaysHowToStartTheAppAndReachItByName() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-hosted")
    let home = scratch.appending("home")
    let build = try Self.appBuild(in: scratch)
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CONFIG_HOME"] = nil
    let install = try Installer.run(
      ["--user", "--app", "todosd", "--binaries", build.binaries], environment: environment, in: scratch)
    try #require(install.status == 0, "install.sh failed: \(install.error)")
    let service = try UnitFile(path: home + "/.config/systemd/user/todosd.service")
    #expect(service.execStart?.first == home + "/.local/bin/todosd")
    #expect(install.output.contains("systemctl --user enable --now todosd.socket"), "\(install.output)")
    #expect(install.output.contains(home + "/.local/bin/tcactl --app todosd status"), "\(install.output)")
  }

  @Test func uninstallingOneDaemonKeepsWhatAnotherStillRuns() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-hosted")
    let stage = scratch.appending("stage")
    let build = try Self.appBuild(in: scratch)
    let options = ["--destdir", stage, "--prefix", "/usr/local"]
    let seeds = try Installer.run(options + ["--binaries", Installer.products], in: scratch)
    try #require(seeds.status == 0, "\(seeds.error)")
    let app = ["--app", "todosd", "--worker", build.worker]
    let todos = try Installer.run(options + app + ["--binaries", build.binaries], in: scratch)
    try #require(todos.status == 0, "\(todos.error)")

    let uninstall = try Installer.run(["uninstall"] + app + options, in: scratch)
    #expect(uninstall.status == 0, "\(uninstall.error)")
    let bin = stage + "/usr/local/bin/"
    #expect(!FileManager.default.fileExists(atPath: bin + "todosd"))
    #expect(!FileManager.default.fileExists(atPath: bin + "todos-export"))
    #expect(!FileManager.default.fileExists(atPath: stage + "/usr/local/lib/systemd/system/todosd.service"))
    #expect(!FileManager.default.fileExists(atPath: stage + "/usr/local/lib/systemd/system/todosd-web.service"))
    // storedaemon's unit still runs from the same bin directory.
    for program in ["storedaemon", "effectworker", "effectworker-network", "tcactl", "tcaweb"] {
      #expect(FileManager.default.fileExists(atPath: bin + program), "\(program) was removed")
    }

    let last = try Installer.run(["uninstall"] + options, in: scratch)
    #expect(last.status == 0, "\(last.error)")
    #expect(try regularFiles(under: stage) == [])
  }

  @Test func aNameThatCannotNameAUnitIsRefused() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-hosted")
    for name in ["Todos", "../x", "-x", ""] {
      let install = try Installer.run(
        ["--app", name, "--destdir", scratch.appending("stage"), "--binaries", Installer.products], in: scratch)
      #expect(install.status == 2, "\(name): \(install.error)")
      #expect(install.error.contains("--app"), "\(name): \(install.error)")
    }
    let worker = try Installer.run(
      ["--worker", "/no/such/worker", "--destdir", scratch.appending("stage"), "--binaries", Installer.products],
      in: scratch)
    #expect(worker.status == 2)
    #expect(worker.error.contains("/no/such/worker: not an executable file"), "\(worker.error)")
  }
}
