import EffectRequests
import Glibc
import Platform
import Wire

/// A worker program's entry point: parses the command line, prepares the
/// process, announces `ready` and serves until the daemon closes the socket.
package enum WorkerMain {
  package static func run(_ program: WorkerProgram, arguments: [String]) -> Never {
    ProcessSetup.configureSignals()
    let usage = WorkerOptions.usage(for: program)
    let options: WorkerOptions
    let parentDeath: ParentDeath.Arrangement
    do {
      // First, so that the daemon dying at any later moment takes this process along.
      let daemonPID = getenv(WorkerProtocol.daemonPIDVariable).map { String(cString: $0) }
      parentDeath = try ParentDeath.arrange(daemonPID: daemonPID)
      switch try WorkerOptions.parse(arguments) {
      case .help:
        StandardStream.output.write(usage)
        exit(ExitStatus.success.rawValue)
      case .run(let parsed):
        options = parsed
      }
      guard program.kinds.contains(options.kind) else {
        throw UsageError(
          "\(program.name) does not serve the \(options.kind.rawValue) kind; "
            + "\(WorkerProtocol.programName(for: options.kind)) does")
      }
    } catch {
      StandardStream.error.write("\(program.name): \(error)\n\n\(usage)")
      exit(ExitStatus.usage.rawValue)
    }
    if let problem = ProcessSetup.socketProblem() {
      StandardStream.error.write(
        "\(program.name): \(problem). storedaemon starts its workers with their socket on file descriptor 3; \(program.name) is not run by hand.\n\n\(usage)"
      )
      exit(ExitStatus.usage.rawValue)
    }
    LogStream.minimumLevel = options.logLevel
    // `effectworker[<kind>]:` tells the daemon's log its workers apart.
    let log = Logger(name: "effectworker[\(options.kind.rawValue)]", namesLevels: false)
    switch parentDeath {
    case .notRequested, .armed:
      break
    case .daemonGone(let daemon, let parent):
      log.info(
        "storedaemon (pid \(daemon)) ended before this worker was set to end with it "
          + "(its parent is now pid \(parent)); exiting")
      exit(ExitStatus.success.rawValue)
    case .failed(let daemon, let error):
      log.warning(
        "cannot ask to be killed when storedaemon (pid \(daemon)) dies: prctl: \(String(cString: strerror(error))); "
          + "ending with its socket instead")
    }
    let channel = WorkerChannel(socket: UnixSocket(descriptor: WorkerProtocol.socketDescriptor), log: log)
    let engine = program.makeEngine(options, channel)
    channel.send(.ready(kind: options.kind, pid: getpid(), protocol: WorkerProtocol.version))
    log.info("ready (pid \(getpid()), protocol \(WorkerProtocol.version))")
    WorkerLoop(channel: channel, engine: engine).run()
  }
}
