import ComposableCore
import Foundation
import Glibc
import JSON
import Synchronization
import TestSupport
import Testing
import Wire

/// The systemd units in `systemd/` as `scripts/install.sh` installs them:
/// where the files land, what the units name, `systemd-analyze verify` and
/// `systemd-analyze security`, the sysusers file, uninstalling, and the
/// installed daemon serving `tcactl` with the environment systemd gives it.
///
/// `systemd-analyze verify` needs each unit's ExecStart binary to exist at the
/// path the unit names. systemd 252's `verify --root=DIR` looks inside DIR for
/// the units a service depends on by default (sysinit.target, …) and for the
/// commands (`kill`), which a staging directory does not hold; so the units
/// are verified as installed with `--prefix` into a temporary directory, where
/// ExecStart names the installed binary. The `--destdir` staging that
/// packagers use is checked file by file.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct UnitFileTests {

  @Test func stagedInstallPutsBinariesAndUnitsWhereTheUnitsExpectThem() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let stage = scratch.appending("stage")
    let install = try Installer.run(
      ["--destdir", stage, "--prefix", "/usr/local", "--binaries", Installer.products], in: scratch)
    try #require(install.status == 0, "install.sh failed: \(install.error)")

    let prefix = stage + "/usr/local"
    for program in ["storedaemon", "effectworker", "effectworker-network", "tcactl", "tcaweb"] {
      #expect(access(prefix + "/bin/" + program, X_OK) == 0, "bin/\(program) is not installed")
    }
    #expect(FileManager.default.fileExists(atPath: prefix + "/share/doc/storedaemon/OPERATIONS.md"))
    // Staging creates no user: that is the package's job when it is installed.
    #expect(!FileManager.default.fileExists(atPath: stage + "/etc"))

    let service = try UnitFile(path: prefix + "/lib/systemd/system/storedaemon.service")
    let socket = try UnitFile(path: prefix + "/lib/systemd/system/storedaemon.socket")
    let userService = try UnitFile(path: prefix + "/lib/systemd/user/storedaemon.service")
    let userSocket = try UnitFile(path: prefix + "/lib/systemd/user/storedaemon.socket")
    for unit in [service, socket, userService, userSocket] {
      #expect(!unit.text.contains("@BINDIR@") && !unit.text.contains("@DOCDIR@"), "\(unit.path) was not rendered")
    }

    // ExecStart names the installed daemon, with its workers beside it.
    for unit in [service, userService] {
      let command = try #require(unit.execStart)
      #expect(command.first == "/usr/local/bin/storedaemon")
      #expect(access(stage + command[0], X_OK) == 0)
      #expect(access(stage + "/usr/local/bin/effectworker", X_OK) == 0)
      #expect(access(stage + "/usr/local/bin/effectworker-network", X_OK) == 0)
      #expect(unit["Service", "Type"] == "notify")
      #expect(unit["Service", "KillMode"] == "mixed")
      #expect(unit["Service", "Restart"] == "on-failure")
      #expect(unit["Service", "RuntimeDirectoryPreserve"] == "yes", "a stop would delete the socket's directory")
      #expect(unit["Unit", "Requires"] == "storedaemon.socket")
    }

    // The socket is where the daemon puts it by default under
    // RuntimeDirectory= ($RUNTIME_DIRECTORY/storedaemon.sock), named for the daemon.
    let runtimeDirectory = try #require(service["Service", "RuntimeDirectory"])
    #expect(socket["Socket", "ListenStream"] == "/run/\(runtimeDirectory)/storedaemon.sock")
    #expect(socket["Socket", "ListenStream"] == "/run/storedaemon/storedaemon.sock")
    #expect(
      userSocket["Socket", "ListenStream"]
        == "%t/\(try #require(userService["Service", "RuntimeDirectory"]))/storedaemon.sock")
    #expect(socket["Socket", "FileDescriptorName"] == "storedaemon")
    #expect(userSocket["Socket", "FileDescriptorName"] == "storedaemon")
    #expect(service["Service", "StateDirectory"] == "storedaemon")

    // The socket's group is the service's group, made by the sysusers file,
    // and the daemon is told to admit it.
    #expect(socket["Socket", "SocketMode"] == "0660")
    #expect(userSocket["Socket", "SocketMode"] == "0600")
    let group = try #require(socket["Socket", "SocketGroup"])
    #expect(service["Service", "Group"] == group)
    #expect(service["Service", "User"] == socket["Socket", "SocketUser"])
    let command = try #require(service.execStart)
    #expect(command.firstIndex(of: "--allow-group").map { command[$0 + 1] } == group)
    let sysusers = try String(contentsOfFile: prefix + "/lib/sysusers.d/storedaemon.conf", encoding: .utf8)
    // "u NAME …" makes the user and a group of the same name.
    let users = sysusers.split(separator: "\n").map { $0.split(separator: " ") }.filter {
      $0.first == "u" && $0.count > 1
    }
    #expect(users.map { String($0[1]) } == [group])
    #expect(service["Service", "User"] == group)

    // The web client beside it: tcaweb on the loopback interface, for the
    // daemon's socket, in the daemon's group (which lets it use the socket).
    let web = try UnitFile(path: prefix + "/lib/systemd/system/storedaemon-web.service")
    let webCommand = try #require(web.execStart)
    #expect(webCommand.first == "/usr/local/bin/tcaweb")
    #expect(access(stage + webCommand[0], X_OK) == 0)
    #expect(webCommand.firstIndex(of: "--socket").map { webCommand[$0 + 1] } == socket["Socket", "ListenStream"])
    #expect(webCommand.firstIndex(of: "--listen").map { webCommand[$0 + 1] } == "127.0.0.1:8080")
    #expect(web["Service", "Group"] == group)
    #expect(web["Service", "DynamicUser"] == "yes")
    #expect(web["Unit", "Wants"] == "storedaemon.socket")
    #expect(FileManager.default.fileExists(atPath: prefix + "/share/doc/storedaemon/WEB.md"))
  }

  @Test(.enabled(if: SystemdTools.analyze != nil, "systemd-analyze is not installed: the unit files are not verified"))
  func systemUnitsPassVerify() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let prefix = try Installer.installWithPrefix(in: scratch)
    let service = try UnitFile(path: prefix + "/lib/systemd/system/storedaemon.service")
    #expect(service.execStart?.first == prefix + "/bin/storedaemon")
    let verify = try UnitFileTestsSupport.run(
      SystemdTools.analyze!,
      [
        "verify", "--man=no", prefix + "/lib/systemd/system/storedaemon.service",
        prefix + "/lib/systemd/system/storedaemon.socket", prefix + "/lib/systemd/system/storedaemon-web.service",
      ],
      in: scratch)
    #expect(verify.status == 0)
    #expect(verify.error.isEmpty, "systemd-analyze verify complained:\n\(verify.error)")
  }

  @Test(.enabled(if: SystemdTools.analyze != nil, "systemd-analyze is not installed: the user units are not verified"))
  func userUnitsInstallVerifyAndUninstall() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let home = scratch.appending("home")
    let runtime = scratch.appending("xdg-runtime")
    try FileManager.default.createDirectory(
      atPath: runtime, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    var environment = ProcessInfo.processInfo.environment
    environment["HOME"] = home
    environment["XDG_CONFIG_HOME"] = scratch.appending("config")
    environment["XDG_RUNTIME_DIR"] = runtime
    let options = ["--user", "--prefix", home + "/.local"]
    let install = try Installer.run(
      options + ["--binaries", Installer.products], environment: environment, in: scratch)
    try #require(install.status == 0, "install.sh --user failed: \(install.error)")

    let units = scratch.appending("config/systemd/user")
    let service = try UnitFile(path: units + "/storedaemon.service")
    #expect(service.execStart?.first == home + "/.local/bin/storedaemon")
    #expect(access(home + "/.local/bin/effectworker", X_OK) == 0)
    #expect(access(home + "/.local/bin/effectworker-network", X_OK) == 0)
    // A user install brings no system units and no system user.
    #expect(!FileManager.default.fileExists(atPath: home + "/.local/lib/systemd/system"))
    #expect(!FileManager.default.fileExists(atPath: home + "/.local/lib/sysusers.d"))

    // --user reads the user unit search path and resolves %t from $XDG_RUNTIME_DIR.
    let verify = try UnitFileTestsSupport.run(
      SystemdTools.analyze!,
      ["verify", "--user", "--man=no", units + "/storedaemon.service", units + "/storedaemon.socket"],
      environment: environment, in: scratch)
    #expect(verify.status == 0)
    #expect(verify.error.isEmpty, "systemd-analyze verify --user complained:\n\(verify.error)")

    let uninstall = try Installer.run(["uninstall"] + options, environment: environment, in: scratch)
    #expect(uninstall.status == 0, "\(uninstall.error)")
    #expect(try regularFiles(under: home).isEmpty && regularFiles(under: scratch.appending("config")).isEmpty)
  }

  @Test(
    .enabled(if: SystemdTools.analyze != nil, "systemd-analyze is not installed: the service's exposure is not rated"))
  func systemServiceIsRatedTwoOrBetter() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let prefix = try Installer.installWithPrefix(in: scratch)
    // --threshold is in tenths: the command fails above 2.0.
    let security = try UnitFileTestsSupport.run(
      SystemdTools.analyze!,
      [
        "security", "--offline=true", "--threshold=20", "--no-pager",
        prefix + "/lib/systemd/system/storedaemon.service",
      ],
      in: scratch)
    #expect(security.status == 0, "\(security.output)\n\(security.error)")
    let line = try #require(
      security.output.split(separator: "\n").first { $0.contains("Overall exposure level for storedaemon.service:") })
    let score = try #require(line.split(separator: ":").last?.split(separator: " ").first.flatMap { Double($0) })
    #expect(score <= 2.0, "\(line)")
    print("systemd-analyze security --offline=true: storedaemon.service exposure \(score)")
  }

  @Test(.enabled(if: SystemdTools.sysusers != nil, "systemd-sysusers is not installed: the sysusers file is not tried"))
  func sysusersFileCreatesTheServiceUserAndSocketGroup() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let stage = scratch.appending("stage")
    let install = try Installer.run(["--destdir", stage, "--binaries", Installer.products], in: scratch)
    try #require(install.status == 0, "\(install.error)")
    let root = scratch.appending("root")
    try FileManager.default.createDirectory(atPath: root + "/etc", withIntermediateDirectories: true)
    let created = try UnitFileTestsSupport.run(
      SystemdTools.sysusers!, ["--root=" + root, stage + "/usr/local/lib/sysusers.d/storedaemon.conf"], in: scratch)
    #expect(created.status == 0, "\(created.error)")
    let passwd = try String(contentsOfFile: root + "/etc/passwd", encoding: .utf8)
    let group = try String(contentsOfFile: root + "/etc/group", encoding: .utf8)
    let user = try #require(
      passwd.split(separator: "\n").first { $0.hasPrefix("storedaemon:") }?.split(
        separator: ":", omittingEmptySubsequences: false))
    #expect(Int(user[2]).map { $0 < 1000 } == true, "not a system user: \(user)")
    #expect(user[6].hasSuffix("nologin"))
    #expect(group.split(separator: "\n").contains { $0.hasPrefix("storedaemon:x:\(user[3]):") }, "\(group)")
  }

  @Test func uninstallRemovesWhatInstallPutAndNothingElse() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let stage = scratch.appending("stage")
    let options = ["--destdir", stage, "--prefix", "/usr/local"]
    let install = try Installer.run(options + ["--binaries", Installer.products], in: scratch)
    try #require(install.status == 0, "\(install.error)")
    let installed = try regularFiles(under: stage)
    // Five programs, five system and user units, the sysusers file, three documents.
    #expect(installed.count == 14, "\(installed)")
    try "not ours\n".write(toFile: stage + "/usr/local/bin/other", atomically: false, encoding: .utf8)

    let uninstall = try Installer.run(["uninstall"] + options, in: scratch)
    #expect(uninstall.status == 0, "\(uninstall.error)")
    #expect(try regularFiles(under: stage) == [stage + "/usr/local/bin/other"])
  }

  @Test func installedServiceServesTcactlWithTheEnvironmentSystemdGivesIt() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let stage = scratch.appending("stage")
    let install = try Installer.run(["--destdir", stage, "--binaries", Installer.products], in: scratch)
    try #require(install.status == 0, "\(install.error)")
    let service = try UnitFile(path: stage + "/usr/local/lib/systemd/system/storedaemon.service")
    let socket = try UnitFile(path: stage + "/usr/local/lib/systemd/system/storedaemon.socket")
    let daemon = try ServiceProcess(stage: stage, service: service, socket: socket, scratch: scratch)
    defer { daemon.kill() }
    try daemon.waitUntilServing()
    try daemon.expectServesTcactl()

    // Without socket activation the daemon makes the socket itself, as the
    // socket unit would: mode 0660, in the group it admits.
    var info = stat()
    #expect(lstat(daemon.socketPath, &info) == 0)
    #expect(info.st_mode & 0o777 == 0o660)
    #expect(info.st_gid == getgid())
    #expect(daemon.stop() == 0, "\(daemon.standardError)")
    #expect(FileManager.default.fileExists(atPath: daemon.stateDirectory + "/journal"))
  }

  @Test(
    .enabled(if: SystemdTools.socketActivate != nil, "systemd-socket-activate is not installed"))
  func socketActivatedServiceServesTcactlAndLeavesTheSocketToSystemd() throws {
    let scratch = try TemporaryDirectory(prefix: "sd-units")
    let stage = scratch.appending("stage")
    let install = try Installer.run(["--destdir", stage, "--binaries", Installer.products], in: scratch)
    try #require(install.status == 0, "\(install.error)")
    let service = try UnitFile(path: stage + "/usr/local/lib/systemd/system/storedaemon.service")
    let socket = try UnitFile(path: stage + "/usr/local/lib/systemd/system/storedaemon.socket")
    let daemon = try ServiceProcess(
      stage: stage, service: service, socket: socket, scratch: scratch, socketActivate: SystemdTools.socketActivate)
    defer { daemon.kill() }
    try daemon.waitUntilServing()
    try daemon.expectServesTcactl()
    #expect(daemon.stop() == 0, "\(daemon.standardError)")
    // The socket belongs to systemd, which keeps listening for the next start.
    #expect(FileManager.default.fileExists(atPath: daemon.socketPath), "the daemon removed systemd's socket")
  }
}

/// `scripts/install.sh`, run from the repository.
enum Installer {
  static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().path
  static var products: String { DaemonProcess.productsDirectory.path }

  static func run(_ arguments: [String], environment: [String: String]? = nil, in scratch: TemporaryDirectory) throws
    -> RunResult
  {
    try UnitFileTestsSupport.run(repository + "/scripts/install.sh", arguments, environment: environment, in: scratch)
  }

  /// Installs into `scratch/prefix` itself (no staging, no user made), so
  /// that the units name binaries that exist; returns the prefix.
  static func installWithPrefix(in scratch: TemporaryDirectory) throws -> String {
    let prefix = scratch.appending("prefix")
    let install = try run(["--prefix", prefix, "--no-sysusers", "--binaries", products], in: scratch)
    guard install.status == 0 else { throw DaemonTestError("install.sh --prefix \(prefix) failed: \(install.error)") }
    return prefix
  }
}

/// The staged storedaemon started as its unit says: ExecStart's command line,
/// with $RUNTIME_DIRECTORY and $STATE_DIRECTORY as systemd sets them (under a
/// temporary directory instead of /run and /var/lib), and the socket group
/// replaced by this user's group, since the storedaemon group need not exist
/// here. With `socketActivate`, the socket is made and passed on fd 3 as the
/// socket unit would.
final class ServiceProcess {
  private var process: SpawnedProcess!
  let socketPath: String
  let stateDirectory: String
  private let scratch: TemporaryDirectory
  private let stage: String

  init(
    stage: String, service: UnitFile, socket: UnitFile, scratch: TemporaryDirectory, socketActivate: String? = nil
  ) throws {
    self.scratch = scratch
    self.stage = stage
    guard var command = service.execStart, let runtime = service["Service", "RuntimeDirectory"],
      let state = service["Service", "StateDirectory"], let listen = socket["Socket", "ListenStream"],
      let group = socket["Socket", "SocketGroup"], let fdName = socket["Socket", "FileDescriptorName"]
    else {
      throw DaemonTestError("the units lack ExecStart, RuntimeDirectory, StateDirectory or the socket's settings")
    }
    let runtimeDirectory = scratch.appending("run/" + runtime)
    stateDirectory = scratch.appending("lib/" + state)
    socketPath = scratch.path + listen
    // What systemd makes before it starts the service.
    try FileManager.default.createDirectory(
      atPath: runtimeDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
    try FileManager.default.createDirectory(
      atPath: stateDirectory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    guard let ownGroup = getgrgid(getgid())?.pointee.gr_name.map({ String(cString: $0) }) else {
      throw DaemonTestError("this user's group has no name")
    }
    command = command.map { $0 == group ? ownGroup : $0 }
    command[0] = stage + command[0]
    let environment = [
      "PATH": "/usr/bin:/bin", "HOME": scratch.appending("home"), "LANG": "C.UTF-8",
      "RUNTIME_DIRECTORY": runtimeDirectory, "STATE_DIRECTORY": stateDirectory,
    ]
    if let socketActivate {
      command =
        [socketActivate, "--listen=" + socketPath, "--fdname=" + fdName]
        + environment.keys.sorted().map { "--setenv=\($0)" } + command
    }
    // Not Foundation's Process, which loses track of systemd-socket-activate.
    process = try SpawnedProcess(command, environment: environment, output: scratch.appending("daemon.log"))
  }

  var standardError: String { (try? String(contentsOfFile: scratch.appending("daemon.log"), encoding: .utf8)) ?? "" }

  func tcactl(_ arguments: [String]) throws -> RunResult {
    var environment = ProcessInfo.processInfo.environment
    environment["TCA_SOCKET"] = socketPath
    environment["NO_COLOR"] = "1"
    return try UnitFileTestsSupport.run(
      stage + "/usr/local/bin/tcactl", arguments, environment: environment, in: scratch)
  }

  func waitUntilServing() throws {
    try waitUntil("storedaemon serves \(socketPath) with its three workers running\n\(standardError)") {
      guard process.isRunning else {
        throw DaemonTestError("storedaemon exited with status \(process.wait()): \(standardError)")
      }
      let status = try tcactl(["status", "--json"])
      guard status.status == 0, let report = try? JSONParser.parse(Array(status.output.utf8)),
        case .array(let workers)? = report[path: "workers"]
      else { return false }
      return workers.filter { worker in
        if case .object(let fields) = worker { fields["state"] == .string("running") } else { false }
      }.count == 3
    }
  }

  /// `tcactl status` names the socket and the state directory; `send` is
  /// accepted; `watch` prints the state with its version.
  func expectServesTcactl() throws {
    let status = try tcactl(["status"])
    #expect(status.status == 0)
    #expect(status.output.contains(stateDirectory), "\(status.output)")
    let send = try tcactl(["send", "counter.incrementButtonTapped"])
    #expect(send.output == "accepted: version 1\n", "\(send.error)")

    let watch = Process()
    watch.executableURL = URL(fileURLWithPath: stage + "/usr/local/bin/tcactl")
    watch.arguments = ["--socket", socketPath, "watch", "counter", "--json"]
    let output = Pipe()
    watch.standardOutput = output
    try watch.run()
    defer {
      watch.terminate()
      watch.waitUntilExit()
    }
    let line = try readLine(from: output.fileHandleForReading.fileDescriptor, timeout: eventTimeout)
    let first = try JSONParser.parse(Array(line.utf8))
    #expect(first[path: "version"] == .int(1), "\(line)")
    #expect(first[path: "state", "count"] == .int(1), "\(line)")
  }

  /// SIGTERM, as systemctl stop sends it; the exit status.
  func stop() -> Int32 {
    process.stop()
  }

  func kill() {
    _ = process.stop(SIGKILL)
  }
}

/// One section/key/value view of a unit file.
struct UnitFile {
  let path: String
  let text: String
  private var values: [String: [String]] = [:]

  init(path: String) throws {
    self.path = path
    text = try String(contentsOfFile: path, encoding: .utf8)
    var section = ""
    for raw in text.split(separator: "\n") {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
      if line.hasPrefix("[") {
        section = String(line.dropFirst().dropLast())
        continue
      }
      guard let equals = line.firstIndex(of: "=") else { continue }
      values["\(section).\(line[..<equals])", default: []].append(String(line[line.index(after: equals)...]))
    }
  }

  /// The last value of `key` in `section`.
  subscript(section: String, key: String) -> String? { values["\(section).\(key)"]?.last }

  /// ExecStart split into words (the units quote nothing).
  var execStart: [String]? { self["Service", "ExecStart"].map { $0.split(separator: " ").map(String.init) } }
}

struct RunResult {
  let status: Int32
  let output: String
  let error: String
}

/// The systemd tools the tests use, where installed.
enum SystemdTools {
  static let analyze = Tool.path("systemd-analyze")
  static let sysusers = Tool.path("systemd-sysusers")
  static let socketActivate = Tool.path("systemd-socket-activate")
}

enum Tool {
  /// `name` on $PATH (or in /usr/bin), if it is there.
  static func path(_ name: String) -> String? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin"] {
      let candidate = directory + "/" + name
      if access(candidate, X_OK) == 0 { return candidate }
    }
    return nil
  }
}

enum UnitFileTestsSupport {
  private static let counter = Mutex(0)

  /// Runs `executable` to completion; its output goes through files, so that
  /// neither stream can fill up and stall it.
  static func run(
    _ executable: String, _ arguments: [String], environment: [String: String]? = nil, in scratch: TemporaryDirectory
  ) throws -> RunResult {
    let number = counter.withLock { value in
      value += 1
      return value
    }
    let outputPath = scratch.appending("run-\(number).out")
    let errorPath = scratch.appending("run-\(number).err")
    _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
    _ = FileManager.default.createFile(atPath: errorPath, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    if let environment { process.environment = environment }
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    process.standardInput = FileHandle(forReadingAtPath: "/dev/null")
    try process.run()
    process.waitUntilExit()
    let output = try String(contentsOfFile: outputPath, encoding: .utf8)
    let error = try String(contentsOfFile: errorPath, encoding: .utf8)
    try? FileManager.default.removeItem(atPath: outputPath)
    try? FileManager.default.removeItem(atPath: errorPath)
    return RunResult(status: process.terminationStatus, output: output, error: error)
  }
}

/// Every regular file and symbolic link under `directory`, sorted.
func regularFiles(under directory: String) throws -> [String] {
  guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
  var files: [String] = []
  for case let relative as String in enumerator {
    var info = stat()
    let path = directory + "/" + relative
    if lstat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR { files.append(path) }
  }
  return files.sorted()
}

/// The first line `fd` delivers within `timeout`.
func readLine(from fd: Int32, timeout: Duration) throws -> String {
  var bytes: [UInt8] = []
  let deadline = ContinuousClock.now + timeout
  while ContinuousClock.now < deadline {
    var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 100) >= 0 else { throw DaemonTestError("poll failed: errno \(errno)") }
    if poller.revents == 0 { continue }
    var byte: UInt8 = 0
    guard read(fd, &byte, 1) == 1 else { break }
    if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
    bytes.append(byte)
  }
  throw DaemonTestError("no line within \(timeout); got '\(String(decoding: bytes, as: UTF8.self))'")
}
