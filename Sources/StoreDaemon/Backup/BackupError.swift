import Journal
import Platform

/// Why a backup or a restore did not happen, with its exit status. Nothing
/// of the source is changed either way.
enum BackupError: Error, CustomStringConvertible {
  /// What was asked cannot be done: the output exists, the state directory
  /// already holds a journal or is in use, the version is not in the copy.
  case refused(String)
  /// The journal or the backup is damaged or not one, or the backup does
  /// not hold the version asked for.
  case damaged(String)
  /// A system call failed.
  case system(String)

  var description: String {
    switch self {
    case .refused(let message), .damaged(let message), .system(let message): message
    }
  }

  /// 73 (cannot create the output), 65 (the data), 74 (input or output).
  var exitStatus: Int32 {
    switch self {
    case .refused: 73
    case .damaged: 65
    case .system: 74
    }
  }

  init(_ error: JournalError) {
    switch error {
    case .system(let failure): self = .system("\(failure)")
    case .locked: self = .refused("\(error)")
    case .invalidArgument(let message): self = .refused(message)
    default: self = .damaged("\(error)")
    }
  }

  init(_ failure: SystemFailure) {
    self = .system("\(failure)")
  }

  static func reading(_ path: String) throws(BackupError) -> [UInt8] {
    do {
      return try FileIO.readAll(path: path)
    } catch {
      throw BackupError(error)
    }
  }
}
