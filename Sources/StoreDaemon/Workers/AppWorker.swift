import ComposableCore
import Glibc
import Wire

/// An effect kind of the app's own and the program that serves it.
///
/// The daemon starts `executable` with `arguments` like its own workers, one
/// process for the kind: it gives it its end of a socketpair as descriptor 3
/// and speaks the worker protocol (docs/PROTOCOL.md, "Worker protocol") with
/// it; it pings it, restarts it when it dies (``RestartPolicy``), routes the
/// requests of `kind` to it (`Effect.worker(_:_:decoding:then:)`), and shows
/// it in `tcactl status`. Any language will do.
///
/// The program finds in its environment, beside the daemon's:
/// - `STOREDAEMON_WORKER_KIND`: `kind`, which it names in its `ready`;
/// - `STOREDAEMON_WORKER_DIRECTORY`: a directory of its own,
///   `STATE_DIR/workers/KIND`, private to the daemon's user, made at start;
/// - `STOREDAEMON_PID`: the daemon's pid, for the parent-death signal.
public struct AppWorker: Hashable, Sendable {
  /// The requests it serves; not one of the built-in kinds.
  public var kind: WorkerKind
  /// The program: an absolute path, or a path relative to the directory of
  /// the daemon's own executable (where `effectworker` is found too), so a
  /// program installed beside the daemon is named by its file name alone.
  public var executable: String
  /// What the program is started with (without its name).
  public var arguments: [String]
  /// How long a request may wait for its answer before it fails with
  /// `timeout` and is cancelled in the worker.
  public var timeout: Duration

  public init(kind: WorkerKind, executable: String, arguments: [String] = [], timeout: Duration = .seconds(30)) {
    self.kind = kind
    self.executable = executable
    self.arguments = arguments
    self.timeout = timeout
  }

  /// The directory `kind`'s program is given under the state directory.
  static func directory(for kind: WorkerKind, stateDirectory: String) -> String {
    stateDirectory + "/workers/" + kind.rawValue
  }

  /// Checks an app's declarations before the daemon starts: each kind's
  /// name is valid, none is a built-in kind or declared twice, and each
  /// program can be run; makes each kind's directory. Returns the
  /// declarations with their executables resolved against `daemonDirectory`.
  ///
  /// - Throws: ``AppWorkerError`` naming the kind, the path and why (the
  ///   daemon then exits with status 70, as for its own workers).
  static func prepare(
    _ workers: [AppWorker], daemonDirectory: String, stateDirectory: String
  ) throws(AppWorkerError) -> [AppWorker] {
    var seen: Set<WorkerKind> = []
    var prepared: [AppWorker] = []
    for var worker in workers {
      do throws(WorkerKindError) {
        try WorkerKind.validate(worker.kind.rawValue)
      } catch {
        throw AppWorkerError(kind: worker.kind, "\(error)")
      }
      guard !worker.kind.isBuiltIn else {
        throw AppWorkerError(
          kind: worker.kind,
          "'\(worker.kind)' is a built-in kind (\(WorkerKind.builtIn.map(\.rawValue).joined(separator: ", "))); "
            + "name the app's kind otherwise")
      }
      guard seen.insert(worker.kind).inserted else {
        throw AppWorkerError(kind: worker.kind, "the kind '\(worker.kind)' is declared twice; declare each kind once")
      }
      guard worker.timeout > .zero else {
        throw AppWorkerError(kind: worker.kind, "its timeout is \(worker.timeout); it must be more than zero")
      }
      if !worker.executable.hasPrefix("/") {
        worker.executable = daemonDirectory + "/" + worker.executable
      }
      var info = stat()
      if stat(worker.executable, &info) != 0 {
        throw AppWorkerError(
          kind: worker.kind, "cannot run '\(worker.executable)': \(String(cString: strerror(errno)))")
      }
      guard info.st_mode & S_IFMT == S_IFREG else {
        throw AppWorkerError(kind: worker.kind, "cannot run '\(worker.executable)': it is not a regular file")
      }
      guard access(worker.executable, X_OK) == 0 else {
        throw AppWorkerError(
          kind: worker.kind,
          "cannot run '\(worker.executable)': \(String(cString: strerror(errno))) (is its executable bit set?)")
      }
      let directory = directory(for: worker.kind, stateDirectory: stateDirectory)
      do {
        try DirectorySetup.create(directory, mode: 0o700)
      } catch {
        throw AppWorkerError(kind: worker.kind, "cannot make its directory: \(error)")
      }
      prepared.append(worker)
    }
    return prepared
  }
}

/// An app's worker declaration the daemon cannot start with.
public struct AppWorkerError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The kind whose declaration is wrong.
  public let kind: WorkerKind
  /// What is wrong and what to do.
  public let reason: String

  init(kind: WorkerKind, _ reason: String) {
    self.kind = kind
    self.reason = reason
  }

  public var description: String { "the app's worker for the kind '\(kind)': \(reason)" }
}
