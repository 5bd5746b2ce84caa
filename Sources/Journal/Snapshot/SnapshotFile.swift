import JSON
import Platform

/// The bytes of a snapshot file (docs/DURABILITY.md, "On-disk format"): one
/// header line of canonical JSON, then the state's canonical JSON, then a
/// line feed.
///
/// ```
/// {"crc32c":<CRC-32C of the state bytes>,"epoch":"…","format":2,"length":<state bytes>,"magic":"storedaemon-snapshot","schema":<n>,"time":<ms>,"version":<n>}\n
/// <state: exactly `length` bytes of canonical JSON>\n
/// ```
///
/// A text header keeps the file readable with ordinary tools
/// (`tail -n +2 snapshot-….snapshot | jq`); the checksum and length make a
/// damaged or cut-short file detectable before its state is trusted, and the
/// version in the header must match the one in the file name. `schema` is
/// the app's schema version the state is in (absent in files written before
/// schemas were recorded: 1).
enum SnapshotFile {
  static let magic = "storedaemon-snapshot"
  /// The format of the state JSON it writes (``JournalFormat``).
  static let formatVersion = JournalFormat.current
  /// A header line longer than this means the file is not a snapshot.
  static let maximumHeaderLength = 4096

  /// The file's bytes for `state` at `version`.
  static func encode(version: UInt64, epoch: String, time: Int64, state: JSONValue, schema: Int = 1) -> [UInt8] {
    let stateBytes = CanonicalJSON.encode(state)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(stateBytes.count + 200)
    bytes.append(literal: #"{"crc32c":"#)
    bytes.append(contentsOf: String(CRC32C.checksum(stateBytes)).utf8)
    bytes.append(literal: #","epoch":"#)
    CanonicalJSON.write(.string(epoch), to: &bytes)
    bytes.append(literal: #","format":"#)
    bytes.append(contentsOf: String(formatVersion).utf8)
    bytes.append(literal: #","length":"#)
    bytes.append(contentsOf: String(stateBytes.count).utf8)
    bytes.append(literal: #","magic":"#)
    CanonicalJSON.write(.string(magic), to: &bytes)
    bytes.append(literal: #","schema":"#)
    bytes.append(contentsOf: String(schema).utf8)
    bytes.append(literal: #","time":"#)
    bytes.append(contentsOf: String(time).utf8)
    bytes.append(literal: #","version":"#)
    bytes.append(contentsOf: String(version).utf8)
    bytes.append(contentsOf: "}\n".utf8)
    bytes.append(contentsOf: stateBytes)
    bytes.append(UInt8(ascii: "\n"))
    return bytes
  }

  /// Why a snapshot file cannot be used.
  enum Problem: Error, Hashable, Sendable {
    /// Written by a newer format.
    case unsupportedFormat(UInt32)
    /// Anything else: what is wrong, in words.
    case unreadable(String)
  }

  /// Reads the snapshot in `bytes`, the contents of the file `path`, whose
  /// name says it holds `expectedVersion`.
  static func decode(_ bytes: [UInt8], path: String, expectedVersion: UInt64) throws(Problem) -> Snapshot {
    guard let newline = bytes.prefix(maximumHeaderLength).firstIndex(of: UInt8(ascii: "\n")) else {
      if bytes.isEmpty { throw .unreadable("the file is empty") }
      throw .unreadable("it does not begin with a snapshot header line (first bytes: \(hexBytes(bytes.prefix(8))))")
    }
    let parsed: JSONValue
    do {
      parsed = try JSONParser.parse(bytes[..<newline])
    } catch {
      throw .unreadable("its header line is not JSON: \(error)")
    }
    guard case .object(let header) = parsed else { throw .unreadable("its header line is not a JSON object") }
    guard header["magic"] == .string(magic) else {
      throw .unreadable("its header line does not say \"magic\":\"\(magic)\": it is not a storedaemon snapshot")
    }
    guard case .int(let format)? = header["format"], format >= 1 else {
      throw .unreadable("its header has no valid \"format\"")
    }
    guard format <= Int(formatVersion) else { throw .unsupportedFormat(UInt32(clamping: format)) }
    guard case .int(let version)? = header["version"], version >= 0,
      case .int(let length)? = header["length"], length >= 0,
      case .int(let checksum)? = header["crc32c"], let storedChecksum = UInt32(exactly: checksum),
      case .string(let epoch)? = header["epoch"],
      case .int(let time)? = header["time"]
    else {
      throw .unreadable("its header lacks one of crc32c, epoch, length, time, version, or has the wrong type")
    }
    var schema = 1
    if let member = header["schema"] {
      guard case .int(let value) = member, value >= 1 else {
        throw .unreadable("its header's \"schema\" is not a positive integer")
      }
      schema = value
    }
    guard UInt64(version) == expectedVersion else {
      throw .unreadable("its header says version \(version) but its name says \(expectedVersion)")
    }
    let stateStart = newline + 1
    let available = bytes.count - stateStart
    guard available >= length + 1 else {
      throw .unreadable("it is cut short: \(available) bytes after the header, \(length + 1) expected")
    }
    guard available == length + 1, bytes[stateStart + length] == UInt8(ascii: "\n") else {
      throw .unreadable("it has \(available) bytes after the header, \(length + 1) expected (state and line feed)")
    }
    let stateBytes = bytes[stateStart..<stateStart + length]
    let computed = CRC32C.checksum(stateBytes)
    guard computed == storedChecksum else {
      throw .unreadable(
        "the state's checksum does not match (stored \(hex(storedChecksum)), computed \(hex(computed)))")
    }
    let state: JSONValue
    do {
      state = try JSONParser.parse(stateBytes)
    } catch {
      throw .unreadable("its state is not valid JSON: \(error)")
    }
    return Snapshot(
      version: UInt64(version), epoch: epoch, time: Int64(time), state: state, path: path, byteCount: bytes.count,
      format: UInt32(format), schema: schema)
  }

  /// Reads and decodes the snapshot file at `path`.
  static func read(path: String, version: UInt64) throws(JournalError) -> Snapshot {
    let bytes: [UInt8]
    do {
      bytes = try FileIO.readAll(path: path)
    } catch {
      throw .system(error)
    }
    do {
      return try decode(bytes, path: path, expectedVersion: version)
    } catch {
      switch error {
      case .unsupportedFormat(let format):
        throw .unsupportedFormat(path: path, found: format, supported: formatVersion)
      case .unreadable(let reason):
        throw .unreadableSnapshot(
          path: path, reason: reason,
          repairAdvice: "Restore it from a backup, or start storedaemon with --repair to move it aside and "
            + "start from the previous snapshot, if the journal still holds every version after that one.")
      }
    }
  }
}
