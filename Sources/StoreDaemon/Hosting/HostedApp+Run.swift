import ActionLanguage
import ComposableCore
import FoundationEssentials
import Glibc
import Platform

extension HostedApp {
  /// Runs the daemon hosting this app, with the process's command line and
  /// environment, until SIGTERM or SIGINT; never returns. The whole of a
  /// hosting executable's `main.swift`:
  ///
  /// ```swift
  /// SeedApps.runDaemon()
  /// ```
  ///
  /// Exits 0 after a clean stop, 64 for a usage or settings error, 65 when
  /// the state on disk cannot be recovered, 70 when the socket, the state
  /// directory or the workers cannot be set up, or the app's actions are
  /// described so that their schema cannot be read (`--help` says the same).
  public static func runDaemon() -> Never {
    // Every log line and message names the app's daemon.
    DaemonName.current = name
    // SIGHUP reloads the settings once serving (Daemon.run); before that the
    // settings are being read anyway. Ignored first thing, before the signals
    // a parent blocked are let in: a SIGHUP that came early, pending until
    // then, must not end the daemon (its default action).
    signal(SIGHUP, SIG_IGN)
    // Writes to closed sockets fail with EPIPE (MSG_NOSIGNAL); this also
    // covers a closed standard error, which must not kill the daemon.
    signal(SIGPIPE, SIG_IGN)
    // A file size limit (RLIMIT_FSIZE) must fail the journal's write with
    // EFBIG, which rejects one batch, rather than kill the daemon.
    signal(SIGXFSZ, SIG_IGN)
    SignalMask.unblockAll()

    let arguments = Array(CommandLine.arguments.dropFirst())
    if arguments.first == "verify" { runVerify(Array(arguments.dropFirst())) }
    if arguments.first == "backup" { runBackup(Array(arguments.dropFirst())) }
    if arguments.first == "restore" { runRestore(Array(arguments.dropFirst())) }
    if arguments.contains("--help") || arguments.contains("-h") {
      print(DaemonOptions.usage(for: Self.self))
      exit(0)
    }
    if arguments.contains("--version") {
      print("\(name) \(version)")
      exit(0)
    }

    let options: DaemonOptions
    do {
      options = try DaemonOptions.parse(arguments, environment: ProcessInfo.processInfo.environment, app: Self.self)
    } catch {
      // The error is one log line; the usage follows as the text it is.
      Log.error("\(error)")
      StandardStream.error.write(DaemonOptions.usage(for: Self.self) + "\n")
      exit(64)
    }

    LogStream.minimumLevel = options.logLevel
    LogStream.commonFields = [("STORE", options.replication?.storeID ?? name)]

    // An action described so that its schema cannot be read would be
    // refused to every client; the app's own conformance check says the same.
    let problems = Root.Action.actionSchema.allProblems
    if !problems.isEmpty {
      for problem in problems { Log.error("\(problem)") }
      exit(70)
    }

    let daemon: Daemon<Self>
    do {
      daemon = try Daemon(options: options, arguments: arguments)
    } catch let error as UsageError {
      Log.error("\(error)")
      exit(64)
    } catch let error as RecoveryFailure {
      Log.error("\(error)")
      exit(65)
    } catch {
      Log.error("\(error)")
      exit(70)
    }
    daemon.run()
  }
}
