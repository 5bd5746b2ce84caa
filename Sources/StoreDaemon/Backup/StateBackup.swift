import FoundationEssentials
import Glibc
import Journal
import Platform
import Wire

/// `NAME backup DIR` and `NAME restore BACKUP` (docs/CLI.md): a consistent
/// copy of a state directory taken while the daemon serves, and a state
/// directory brought back to any version such a copy holds.
///
/// A backup is itself a state directory (`journal/`, each named store's
/// `stores/NAME/journal/`, the app's `NAME.conf` if there is one) with
/// `backup.json` beside them, so `verify` and a
/// daemon run on it as they are. It is written under `DIR.partial-PID`
/// and renamed to `DIR` once every file and the manifest are synced: `DIR`
/// exists only whole, and one left by a backup that was killed is removed
/// by the next backup to the same `DIR`.
enum StateBackup {
  static let partialMarker = ".partial-"

  /// Copies the journal of `stateDirectory`, its named stores' and
  /// `appName.conf` into the new directory `destination`.
  static func take(
    stateDirectory: String, into destination: String, appName: String, build: String
  ) throws(BackupError) -> BackupManifest {
    let destination = destination.count > 1 && destination.hasSuffix("/") ? String(destination.dropLast()) : destination
    let journal = stateDirectory + "/journal"
    guard FileIO.exists(journal) else {
      throw .damaged("\(stateDirectory) holds no journal (\(journal) does not exist): nothing to back up")
    }
    guard !FileIO.exists(destination) else {
      throw .refused("\(destination) exists: a backup is written to a new directory, which it creates")
    }
    removeLeftovers(of: destination)
    let partial = destination + partialMarker + String(getpid())
    do throws(BackupError) {
      do throws(SystemFailure) {
        try FileIO.makeDirectory(partial)
        try FileIO.makeDirectory(partial + "/journal")
      } catch {
        throw BackupError(error)
      }
      let copied: JournalCopy.Result
      do throws(JournalError) {
        copied = try JournalCopy.copy(from: journal, to: partial + "/journal")
      } catch {
        throw BackupError(error)
      }
      #if DEBUG
        killDuringBackupIfAsked(at: "after-journal")
      #endif
      var names = copied.files.map { "journal/" + $0 }
      var stores: [BackupManifest.Store] = []
      let named: [StoreName]
      do throws(SystemFailure) {
        named = try StoreDirectories.names(in: stateDirectory)
      } catch {
        throw BackupError(error)
      }
      for store in named {
        let path = StoreDirectories.stores + "/" + store.text + "/journal"
        do throws(SystemFailure) {
          try FileIO.makeDirectory(partial + "/" + StoreDirectories.stores)
          try FileIO.makeDirectory(partial + "/" + StoreDirectories.stores + "/" + store.text)
          try FileIO.makeDirectory(partial + "/" + path)
        } catch {
          throw BackupError(error)
        }
        let storeCopy: JournalCopy.Result
        do throws(JournalError) {
          storeCopy = try JournalCopy.copy(from: stateDirectory + "/" + path, to: partial + "/" + path)
        } catch {
          throw BackupError(error)
        }
        names += storeCopy.files.map { path + "/" + $0 }
        stores.append(
          BackupManifest.Store(
            name: store.text, from: storeCopy.from, through: storeCopy.through, epoch: storeCopy.epoch))
      }
      let configuration = appName + ".conf"
      if FileIO.exists(stateDirectory + "/" + configuration) {
        try write(BackupError.reading(stateDirectory + "/" + configuration), to: partial + "/" + configuration)
        names.append(configuration)
      }
      var files: [BackupManifest.File] = []
      for name in names { files.append(try BackupManifest.file(name, in: partial)) }
      let manifest = BackupManifest(
        build: build, source: stateDirectory, from: copied.from, through: copied.through, epoch: copied.epoch,
        time: WallClock.milliseconds(), files: files, stores: stores.isEmpty ? nil : stores)
      try write(manifest.encoded(), to: partial + "/" + BackupManifest.fileName)
      #if DEBUG
        killDuringBackupIfAsked(at: "before-rename")
      #endif
      do throws(SystemFailure) {
        try FileIO.syncDirectory(partial)
        try FileIO.rename(partial, to: destination)
        try FileIO.syncDirectory(FileIO.parent(of: destination))
      } catch {
        throw BackupError(error)
      }
      return manifest
    } catch {
      try? FileManager.default.removeItem(atPath: partial)
      throw error
    }
  }

  /// What a restore did.
  struct Restored {
    let manifest: BackupManifest
    let version: UInt64
    let epoch: String
    /// The app's settings file was in the backup, but the state directory
    /// has one of its own, which was kept.
    let keptConfiguration: String?
    /// The named stores restored, each to its last version in the backup,
    /// with the epoch the versions after it begin.
    let stores: [(name: String, version: UInt64, epoch: String)]
  }

  /// Restores the backup in `backup` into `stateDirectory`: the default
  /// store through `version` (the backup's last if nil), with a new epoch
  /// after it, and each named store to its last version in the backup,
  /// with a new epoch of its own.
  static func restore(
    from backup: String, into stateDirectory: String, through version: UInt64?, appName: String
  ) throws(BackupError) -> Restored {
    let manifest = try BackupManifest.read(checking: backup)
    let stores = manifest.stores ?? []
    var names = Set<String>()
    for store in stores {
      do throws(MessageError) {
        _ = try StoreName(store.name)
      } catch {
        throw .damaged("\(backup)/\(BackupManifest.fileName) names a store that is not one: \(error.message)")
      }
      guard names.insert(store.name).inserted else {
        throw .damaged("\(backup)/\(BackupManifest.fileName) lists the store '\(store.name)' twice")
      }
    }
    // The restore reads the journal directories: nothing in them may have
    // come from elsewhere than the backup.
    let known = Set(manifest.files.map(\.name))
    for journal in ["journal"] + stores.map({ StoreDirectories.stores + "/" + $0.name + "/journal" }) {
      let listed: [String]
      do {
        listed = try FileIO.list(backup + "/" + journal)
      } catch {
        throw BackupError(error)
      }
      for name in listed where name.hasSuffix(".journal") || name.hasSuffix(".snapshot") {
        guard known.contains(journal + "/" + name) else {
          throw .damaged("\(backup)/\(journal)/\(name) is not one of the files backup.json lists")
        }
      }
    }
    let existing: [StoreName]
    do throws(SystemFailure) {
      existing = try StoreDirectories.names(in: stateDirectory)
    } catch {
      throw BackupError(error)
    }
    if let store = existing.first {
      throw .refused(
        "\(stateDirectory) already holds the store '\(store)' (\(StoreDirectories.stores)/\(store)/journal): "
          + "move its stores aside first (a restore never overwrites a journal)")
    }
    if let version, !(manifest.from...manifest.through).contains(version) {
      throw .damaged("\(backup) holds versions \(manifest.from)…\(manifest.through), not version \(version)")
    }
    do throws(SystemFailure) {
      try FileIO.makeDirectory(stateDirectory)
    } catch {
      throw BackupError(error)
    }
    // What a refused or failed restore wrote is taken away again, so that
    // the state directory is as it was and the restore can be run again.
    let rollback = RestoreRollback(stateDirectory: stateDirectory, stores: stores.map(\.name))
    do throws(BackupError) {
      let epoch = Epoch.random()
      let recovered: RecoveredJournal
      do throws(JournalError) {
        let journal = try JournalDirectory(path: stateDirectory + "/journal")
        recovered = try JournalRestore.restore(
          from: backup + "/journal", into: journal, through: version, epoch: epoch)
      } catch {
        if case .locked(_, let holder) = error {
          throw .refused(
            "\(stateDirectory) is in use\(holder.map { " by pid \($0)" } ?? ""): stop the daemon before restoring into it"
          )
        }
        throw BackupError(error)
      }
      var restoredStores: [(name: String, version: UInt64, epoch: String)] = []
      for store in stores {
        let path = StoreDirectories.stores + "/" + store.name + "/journal"
        let storeEpoch = Epoch.random()
        do throws(SystemFailure) {
          try FileIO.makeDirectory(stateDirectory + "/" + StoreDirectories.stores)
          try FileIO.makeDirectory(stateDirectory + "/" + StoreDirectories.stores + "/" + store.name)
        } catch {
          throw BackupError(error)
        }
        do throws(JournalError) {
          let journal = try JournalDirectory(path: stateDirectory + "/" + path)
          let restored = try JournalRestore.restore(
            from: backup + "/" + path, into: journal, through: nil, epoch: storeEpoch)
          restoredStores.append((store.name, restored.report.lastVersion, storeEpoch))
        } catch {
          throw BackupError(error)
        }
      }
      let configuration = appName + ".conf"
      var kept: String?
      if manifest.files.contains(where: { $0.name == configuration }) {
        let target = stateDirectory + "/" + configuration
        let saved = try BackupError.reading(backup + "/" + configuration)
        if !FileIO.exists(target) {
          try write(saved, to: target)
        } else if try BackupError.reading(target) != saved {
          kept = target
        }
      }
      return Restored(
        manifest: manifest, version: recovered.report.lastVersion, epoch: epoch, keptConfiguration: kept,
        stores: restoredStores)

    } catch {
      rollback.undo()
      throw error
    }
  }

  /// Removes `DIR.partial-PID` directories left by backups to `destination`
  /// whose process is gone.
  private static func removeLeftovers(of destination: String) {
    let parent = FileIO.parent(of: destination)
    let prefix = String(destination.split(separator: "/").last ?? "") + partialMarker
    for name in (try? FileIO.list(parent)) ?? [] where name.hasPrefix(prefix) {
      guard let pid = Int32(name.dropFirst(prefix.count)), pid > 0 else { continue }
      if kill(pid, 0) == -1 && errno == ESRCH {
        try? FileManager.default.removeItem(atPath: parent + "/" + name)
      }
    }
  }

  private static func write(_ bytes: [UInt8], to path: String) throws(BackupError) {
    do {
      try FileIO.createSynced(path, with: bytes)
    } catch {
      throw BackupError(error)
    }
  }
}

#if DEBUG
  extension StateBackup {
    /// `STOREDAEMON_DEBUG_KILL_DURING_BACKUP=after-journal` or
    /// `before-rename`: the backup kills itself there with SIGKILL, for
    /// tests of a backup cut short; not in release builds.
    fileprivate static func killDuringBackupIfAsked(at point: String) {
      guard ProcessInfo.processInfo.environment["STOREDAEMON_DEBUG_KILL_DURING_BACKUP"] == point else { return }
      kill(getpid(), SIGKILL)
    }
  }
#endif

/// What a restore found in the state directory before it wrote anything,
/// so that a restore that fails midway (a store's directory in the way, a
/// full disk) can take away what it wrote and leave the directory as it was.
private struct RestoreRollback {
  let stateDirectory: String
  let stores: [String]
  private let journalExisted: Bool
  /// The files the journal directory held, when it existed: never removed.
  private let journalFiles: Set<String>
  private let storesExisted: Bool
  /// Of each store, whether its directory and its journal existed.
  private let storeDirectories: [String: (directory: Bool, journal: Bool)]

  init(stateDirectory: String, stores: [String]) {
    self.stateDirectory = stateDirectory
    self.stores = stores
    journalExisted = FileIO.exists(stateDirectory + "/journal")
    journalFiles = Set((try? FileIO.list(stateDirectory + "/journal")) ?? [])
    storesExisted = FileIO.exists(stateDirectory + "/" + StoreDirectories.stores)
    var storeDirectories: [String: (directory: Bool, journal: Bool)] = [:]
    for store in stores {
      let directory = stateDirectory + "/" + StoreDirectories.stores + "/" + store
      storeDirectories[store] = (FileIO.exists(directory), FileIO.exists(directory + "/journal"))
    }
    self.storeDirectories = storeDirectories
  }

  /// Removes what the restore made: the directories that were not there,
  /// and the journal files written into a journal directory that was there;
  /// nothing that was there before.
  func undo() {
    let files = FileManager.default
    let journal = stateDirectory + "/journal"
    if !journalExisted {
      try? files.removeItem(atPath: journal)
    } else {
      for name in (try? FileIO.list(journal)) ?? []
      where !journalFiles.contains(name) && (name.hasSuffix(".journal") || name.hasSuffix(".snapshot")) {
        try? files.removeItem(atPath: journal + "/" + name)
      }
    }
    let storesPath = stateDirectory + "/" + StoreDirectories.stores
    guard storesExisted else {
      try? files.removeItem(atPath: storesPath)
      return
    }
    for store in stores {
      let directory = storesPath + "/" + store
      guard let existed = storeDirectories[store] else { continue }
      if !existed.directory {
        try? files.removeItem(atPath: directory)
      } else if !existed.journal {
        try? files.removeItem(atPath: directory + "/journal")
      }
    }
  }
}
