import JSON
import Journal
import Platform

/// `backup.json`, the last file a backup writes: what the backup holds and
/// each of its files' size and checksum, so that a restore can tell a whole
/// backup from a damaged one (docs/OPERATIONS.md, "Backup").
struct BackupManifest: Codable, Hashable, Sendable {
  static let magic = "storedaemon-backup"
  static let fileName = "backup.json"

  var magic = Self.magic
  /// `NAME VERSION` of the build that took it.
  var build: String
  /// The state directory it was taken of.
  var source: String
  /// The versions it holds: its snapshot's (0 without one) through its last.
  var from: UInt64
  var through: UInt64
  /// The epoch of its last version.
  var epoch: String?
  /// When it was taken, in milliseconds since 1970.
  var time: Int64
  var files: [File]
  /// The named stores it holds (`stores/NAME/journal`), each whole up to
  /// its last record when it was copied; none in a backup of a state
  /// directory without named stores.
  var stores: [Store]? = nil

  /// What a backup holds of one named store.
  struct Store: Codable, Hashable, Sendable {
    var name: String
    var from: UInt64
    var through: UInt64
    var epoch: String?
  }

  struct File: Codable, Hashable, Sendable {
    /// The path inside the backup, e.g. `journal/00000000000000000001.journal`.
    var name: String
    var bytes: Int
    var crc32c: UInt32
  }

  /// The entry for the file `name` of the backup in `directory`, read back
  /// from the disk.
  static func file(_ name: String, in directory: String) throws(BackupError) -> File {
    let bytes = try BackupError.reading(directory + "/" + name)
    return File(name: name, bytes: bytes.count, crc32c: CRC32C.checksum(bytes))
  }

  /// The manifest of the backup in `directory`, with every file it lists
  /// checked against its size and checksum.
  static func read(checking directory: String) throws(BackupError) -> BackupManifest {
    let path = directory + "/" + fileName
    let text = try BackupError.reading(path)
    let manifest: BackupManifest
    do {
      manifest = try CanonicalJSON.decode(BackupManifest.self, from: JSONParser.parse(text[...]))
    } catch {
      throw .damaged("\(path) is not a backup's manifest: \(error)")
    }
    guard manifest.magic == magic else {
      throw .damaged("\(path) is not a backup's manifest (its magic is not \(magic))")
    }
    for file in manifest.files {
      guard !file.name.hasPrefix("/"), !file.name.split(separator: "/").contains("..") else {
        throw .damaged("\(path) names a file outside the backup: \(file.name)")
      }
      let found = try Self.file(file.name, in: directory)
      guard found == file else {
        throw .damaged(
          "\(directory)/\(file.name) is not the file the backup wrote: \(found.bytes) bytes, CRC-32C \(found.crc32c); "
            + "the manifest says \(file.bytes) bytes, CRC-32C \(file.crc32c)")
      }
    }
    return manifest
  }

  /// The manifest as the file holds it: canonical JSON and a line feed.
  func encoded() throws(BackupError) -> [UInt8] {
    do {
      return CanonicalJSON.encode(try CanonicalJSON.value(of: self)) + [UInt8(ascii: "\n")]
    } catch {
      throw .system("cannot encode the manifest: \(error)")
    }
  }
}
