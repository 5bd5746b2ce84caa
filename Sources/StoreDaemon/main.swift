// storedaemon: owns the application state and the root reducer, and serves
// clients over a Unix socket. See `storedaemon --help` and docs/CLI.md.
import ComposableCore
import Dispatch
import FoundationEssentials
import Glibc
import Platform
import Wire

// SIGHUP reloads the settings once serving (Daemon.run); before that the
// settings are being read anyway. Ignored first thing, before the signals a
// parent blocked are let in: a SIGHUP that came early, pending until then,
// must not end the daemon (its default action).
signal(SIGHUP, SIG_IGN)
// Writes to closed sockets fail with EPIPE (MSG_NOSIGNAL); this also covers a
// closed standard error, which must not kill the daemon.
signal(SIGPIPE, SIG_IGN)
// A file size limit (RLIMIT_FSIZE) must fail the journal's write with EFBIG,
// which rejects one batch, rather than kill the daemon.
signal(SIGXFSZ, SIG_IGN)
SignalMask.unblockAll()

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("--help") || arguments.contains("-h") {
  print(DaemonOptions.usage)
  exit(0)
}
if arguments.contains("--version") {
  print("storedaemon \(DaemonOptions.version)")
  exit(0)
}

let options: DaemonOptions
do {
  options = try DaemonOptions.parse(arguments, environment: ProcessInfo.processInfo.environment)
} catch {
  Log.error("\(error)\n\(DaemonOptions.usage)")
  exit(64)
}

LogStream.minimumLevel = options.logLevel

let daemon: Daemon
do {
  daemon = try Daemon(options: options, arguments: arguments)
} catch let error as UsageError {
  Log.error("\(error)")
  exit(64)
} catch let error as StateRecovery.Failure {
  Log.error("\(error)")
  exit(65)
} catch {
  Log.error("\(error)")
  exit(70)
}
daemon.run()
