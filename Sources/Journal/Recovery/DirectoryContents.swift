import Platform

/// The journal files in a directory, classified by name and sorted.
struct DirectoryContents: Sendable {
  /// Segments, oldest first.
  var segments: [(firstVersion: UInt64, path: String)] = []
  /// Snapshots, newest first.
  var snapshots: [(version: UInt64, path: String)] = []
  /// Files of interrupted writes (`.creating`, `.tmp`), by name.
  var interrupted: [String] = []
  /// Temporary files of interrupted snapshots, with their versions.
  var pendingSnapshots: [(version: UInt64, path: String)] = []
  /// Files set aside by earlier recoveries, by name.
  var setAside: [String] = []

  /// Lists `directory`.
  init(directory: String) throws(SystemFailure) {
    for name in try FileIO.list(directory).sorted() {
      let path = directory + "/" + name
      switch JournalFileName(name) {
      case .segment(let firstVersion): segments.append((firstVersion, path))
      case .snapshot(let version): snapshots.append((version, path))
      case .segmentBeingCreated: interrupted.append(path)
      case .snapshotBeingWritten(let version):
        interrupted.append(path)
        pendingSnapshots.append((version, path))
      case .setAside: setAside.append(path)
      case .lock, .other: break
      }
    }
    segments.sort { $0.firstVersion < $1.firstVersion }
    snapshots.sort { $0.version > $1.version }
  }
}
