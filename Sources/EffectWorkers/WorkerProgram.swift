import EffectRequests
import Glibc
import Platform
import Wire

/// One worker executable: the kinds it serves and how it makes their engines.
///
/// There are two, so that a worker loads only what its kind uses:
/// ``effectworker`` serves timers and storage and links FoundationEssentials
/// alone; `effectworker-network` (the `NetworkWorker` module) serves HTTP and
/// is the only one that links FoundationNetworking, libcurl and its TLS
/// libraries. A crashed timer or storage worker is back in a few milliseconds
/// because of it. ``WorkerProtocol/programName(for:)`` says which serves what.
package struct WorkerProgram: Sendable {
  /// The program's name, as the daemon finds it and as usage texts show it.
  package let name: String
  /// The kinds it serves, in the order usage texts list them.
  package let kinds: [WorkerKind]
  /// Makes the engine for `options.kind`, one of ``kinds``. It may log and
  /// exit the process when the kind cannot work (storage without its directory).
  let makeEngine: @Sendable (_ options: WorkerOptions, _ channel: WorkerChannel) -> any WorkerEngine

  package init(
    kinds: [WorkerKind],
    makeEngine: @escaping @Sendable (_ options: WorkerOptions, _ channel: WorkerChannel) -> any WorkerEngine
  ) {
    let name = WorkerProtocol.programName(for: kinds[0])
    // invariant: the kinds are the program's own, written in its main.swift, never input
    precondition(
      kinds.allSatisfy { WorkerProtocol.programName(for: $0) == name }, "\(kinds) are served by different programs")
    self.name = name
    self.kinds = kinds
    self.makeEngine = makeEngine
  }

  /// `effectworker`: timers and storage.
  package static let effectworker = WorkerProgram(kinds: [.timer, .storage]) { options, channel in
    switch options.kind {
    case .timer:
      return TimerEngine(channel: channel)
    case .storage:
      do throws(StorageError) {
        return StorageEngine(channel: channel, directory: try openStorage(options, log: channel.log))
      } catch {
        channel.log.error("cannot use the state directory: \(error)")
        exit(ExitStatus.failure.rawValue)
      }
    default:
      // invariant: WorkerMain refuses a --kind the program does not serve before it makes an engine (ManualRunTests)
      preconditionFailure("WorkerMain checks the kind against the program's kinds")
    }
  }

  /// Opens the storage under `--state-dir`, takes its lock and removes what
  /// interrupted puts left behind.
  private static func openStorage(_ options: WorkerOptions, log: Logger) throws(StorageError) -> StorageDirectory {
    // `parse` guarantees a state directory for the storage kind.
    let directory = try StorageDirectory(stateDirectory: options.stateDirectory ?? ".")
    // Never closed: the lock is held for the whole life of the worker.
    try directory.lockExclusively()
    for path in try directory.removeStaleTemporaries() {
      log.warning("removed \(path), left by a put that did not finish")
    }
    return directory
  }
}
