import ComposableCore
import Glibc
import Wire

/// `effectworker`'s entry point: parses the command line, prepares the
/// process, announces `ready` and serves until the daemon closes the socket.
enum WorkerMain {
  static func run(_ arguments: [String]) -> Never {
    ProcessSetup.configureSignals()
    let options: WorkerOptions
    do {
      switch try WorkerOptions.parse(arguments) {
      case .help:
        StandardStream.output.write(WorkerOptions.usage)
        exit(ExitStatus.success.rawValue)
      case .run(let parsed):
        options = parsed
      }
    } catch {
      StandardStream.error.write("effectworker: \(error)\n\n\(WorkerOptions.usage)")
      exit(ExitStatus.usage.rawValue)
    }
    if let problem = ProcessSetup.socketProblem() {
      StandardStream.error.write(
        "effectworker: \(problem). storedaemon starts its workers with their socket on file descriptor 3; effectworker is not run by hand.\n\n\(WorkerOptions.usage)"
      )
      exit(ExitStatus.usage.rawValue)
    }
    LogStream.minimumLevel = options.logLevel
    let log = WorkerLog(kind: options.kind)
    let closed = ProcessSetup.closeInheritedDescriptors()
    if !closed.isEmpty {
      log("closed inherited file descriptors \(closed.map(String.init).joined(separator: ", "))", level: .debug)
    }
    let channel = WorkerChannel(socket: UnixSocket(descriptor: WorkerProtocol.socketDescriptor), log: log)
    let engine: any WorkerEngine
    switch options.kind {
    case .timer:
      engine = TimerEngine(channel: channel)
    case .network:
      engine = NetworkEngine(channel: channel, maximumResponseBytes: options.maximumResponseBytes)
    case .storage:
      do throws(StorageError) {
        engine = StorageEngine(channel: channel, directory: try openStorage(options, log: log))
      } catch {
        log("cannot use the state directory: \(error)", level: .error)
        exit(ExitStatus.failure.rawValue)
      }
    }
    channel.send(.ready(kind: options.kind, pid: getpid(), protocol: WorkerProtocol.version))
    log("ready (pid \(getpid()), protocol \(WorkerProtocol.version))")
    WorkerLoop(channel: channel, engine: engine).run()
  }

  /// Opens the storage under `--state-dir`, takes its lock and removes what
  /// interrupted puts left behind.
  private static func openStorage(_ options: WorkerOptions, log: WorkerLog) throws(StorageError) -> StorageDirectory {
    // `parse` guarantees a state directory for the storage kind.
    let directory = try StorageDirectory(stateDirectory: options.stateDirectory ?? ".")
    // Never closed: the lock is held for the whole life of the worker.
    try directory.lockExclusively()
    for path in try directory.removeStaleTemporaries() {
      log("removed \(path), left by a put that did not finish", level: .warning)
    }
    return directory
  }
}
