import FoundationEssentials
import Glibc
import Platform

extension HostedApp {
  /// `NAME backup DIR [--state-dir DIR]`: writes a consistent copy of the
  /// state directory while the daemon serves (``StateBackup``).
  ///
  /// Exits 0 once the backup is whole and synced, 64 for a usage error, 65
  /// when the journal is damaged or missing, 73 when DIR exists, 74 when a
  /// file cannot be read or written.
  static func runBackup(_ arguments: [String]) -> Never {
    let (positional, stateDirectory, _) = backupArguments(arguments, usage: backupUsage, takesVersion: false)
    guard positional.count == 1, let destination = positional.first else {
      usageError(
        "backup needs the directory to write the backup to, e.g. \(name) backup /var/backups/\(name)-1",
        usage: backupUsage)
    }
    let started = ContinuousClock.now
    do throws(BackupError) {
      let manifest = try StateBackup.take(
        stateDirectory: stateDirectory, into: destination, appName: name, build: "\(name) \(version)")
      let bytes = manifest.files.reduce(0) { $0 + $1.bytes }
      let stores = manifest.stores.map { " and \($0.count) named store\($0.count == 1 ? "" : "s")" } ?? ""
      print(
        "\(name): backed up versions \(manifest.from)…\(manifest.through)\(manifest.epoch.map { " (epoch \($0))" } ?? "")"
          + "\(stores) of \(stateDirectory) to \(destination): \(manifest.files.count) files, \(bytes) bytes, in "
          + secondsText(ContinuousClock.now - started))
      exit(0)
    } catch {
      Log.error("cannot back up \(stateDirectory): \(error)")
      exit(error.exitStatus)
    }
  }

  /// `NAME restore BACKUP [--version V] [--state-dir DIR]`: brings a state
  /// directory that holds no journal back to a version of a backup.
  ///
  /// Exits 0 once restored, 64 for a usage error, 65 when the backup is
  /// damaged or does not hold the version, 73 when the state directory
  /// holds a journal or the daemon runs on it, 74 when a file cannot be
  /// read or written.
  static func runRestore(_ arguments: [String]) -> Never {
    let (positional, stateDirectory, version) = backupArguments(arguments, usage: restoreUsage, takesVersion: true)
    guard positional.count == 1, let backup = positional.first else {
      usageError(
        "restore needs the backup's directory, e.g. \(name) restore /var/backups/\(name)-1", usage: restoreUsage)
    }
    do throws(BackupError) {
      let restored = try StateBackup.restore(from: backup, into: stateDirectory, through: version, appName: name)
      print(
        "\(name): restored version \(restored.version) of \(backup) (versions \(restored.manifest.from)…"
          + "\(restored.manifest.through)) into \(stateDirectory); the versions after it begin epoch \(restored.epoch)")
      for store in restored.stores {
        print(
          "\(name): restored the store '\(store.name)' to version \(store.version), its last in the backup; "
            + "the versions after it begin epoch \(store.epoch)")
      }
      if let kept = restored.keptConfiguration {
        print("\(name): kept \(kept), which differs from the backup's: compare them before starting the daemon")
      }
      exit(0)
    } catch {
      Log.error("cannot restore \(backup) into \(stateDirectory): \(error)")
      exit(error.exitStatus)
    }
  }

  /// The positional arguments, the state directory, and `--version`.
  private static func backupArguments(
    _ arguments: [String], usage: String, takesVersion: Bool
  ) -> (positional: [String], stateDirectory: String, version: UInt64?) {
    if arguments.contains("--help") || arguments.contains("-h") {
      print(usage)
      exit(0)
    }
    var positional: [String] = []
    var stateDirectory: String?
    var version: UInt64?
    var index = 0
    while index < arguments.count {
      // `--name value` or `--name=value`, as the daemon's options.
      var argument = arguments[index]
      var value = index + 1 < arguments.count ? arguments[index + 1] : nil
      var step = 2
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        value = String(argument[argument.index(after: equals)...])
        argument = String(argument[..<equals])
        step = 1
      }
      switch argument {
      case "--state-dir":
        guard let value, !value.isEmpty else { usageError("--state-dir needs a directory", usage: usage) }
        stateDirectory = value
        index += step
      case "--version" where takesVersion:
        guard let value, let number = UInt64(value) else {
          usageError("--version needs the version to restore, a whole number such as 42", usage: usage)
        }
        version = number
        index += step
      default:
        if argument.hasPrefix("-") && argument != "-" { usageError("unknown option \(argument)", usage: usage) }
        positional.append(argument)
        index += 1
      }
    }
    let environment = ProcessInfo.processInfo.environment
    return (
      positional, stateDirectory ?? RuntimePaths.defaultStateDirectory(name: name, environment: environment), version
    )
  }

  private static func usageError(_ message: String, usage: String) -> Never {
    Log.error(message)
    StandardStream.error.write(usage + "\n")
    exit(64)
  }

  static var backupUsage: String {
    """
    usage: \(name) backup DIR [--state-dir STATE]

    Writes a consistent copy of STATE (default: the daemon's state directory)
    to the new directory DIR while the daemon serves: its newest snapshot and
    every record after it up to the last one on the device, and the settings
    file \(name).conf if there is one, with backup.json listing each file's
    size and checksum. DIR exists only once the copy is whole and synced.

    exit status: 0 when the backup is written, 64 for a usage error, 65 when the
    journal is damaged or missing, 73 when DIR exists, 74 when a file cannot be
    read or written.
    """
  }

  static var restoreUsage: String {
    """
    usage: \(name) restore BACKUP [--version V] [--state-dir STATE]

    Brings STATE (default: the daemon's state directory), which must hold no
    journal, back to version V of the backup in BACKUP (default: its last),
    any version from its snapshot's on. The versions after V begin a new epoch:
    clients resuming from the old history get a fresh state. Stop the daemon
    first, and move its state directory's journal aside.

    exit status: 0 when restored, 64 for a usage error, 65 when the backup is
    damaged or does not hold V, 73 when STATE holds a journal or is in use, 74
    when a file cannot be read or written.
    """
  }
}
