import JSON
import Journal
import Platform

/// A stretch of recorded history to replay: the state the first version
/// follows from, and the versions, contiguous.
///
/// Read from a state directory (``init(stateDirectory:)``, the whole
/// retained journal) or from what `tcactl log --json` prints
/// (``init(log:base:baseSchema:)``).
public struct RecordedHistory: Sendable {
  /// The state the first version follows from, as recorded; `nil` for the
  /// app's initial state (a history that starts at version 1 without one).
  public var base: JSONValue?
  /// The version `base` is at.
  public var baseVersion: UInt64
  /// The app's schema version `base` is in.
  public var baseSchema: Int
  /// The shape of the enums in `base` (``JournalFormat``).
  public var baseFormat: UInt32
  /// The versions after `base`, in order.
  public var versions: [JournalRecord]

  public init(
    base: JSONValue?, baseVersion: UInt64 = 0, baseSchema: Int = 1, baseFormat: UInt32 = JournalFormat.current,
    versions: [JournalRecord]
  ) {
    self.base = base
    self.baseVersion = baseVersion
    self.baseSchema = baseSchema
    self.baseFormat = baseFormat
    self.versions = versions
  }

  /// The last version, or the base's if there are none.
  public var lastVersion: UInt64 { versions.last?.version ?? baseVersion }

  /// The retained journal of a state directory (or of the journal directory
  /// itself): the oldest snapshot the records continue from, and every
  /// record through the last written whole. It only reads, without the
  /// directory's lock, so it runs beside the daemon (or on a copy).
  ///
  /// - Throws: ``ReplayError/unreadable(_:)`` saying why.
  public init(stateDirectory path: String) throws(ReplayError) {
    let inStateDirectory = FileIO.exists(path + "/journal")
    let journal = inStateDirectory ? path + "/journal" : path
    guard FileIO.exists(journal) else {
      throw .unreadable("\(path) does not exist: give the daemon's state directory (--state-dir) or a copy of it")
    }
    let retained: RetainedJournal
    do {
      retained = try JournalReader(directory: journal).retained()
    } catch {
      throw .unreadable("cannot read the journal in \(journal): \(error)")
    }
    if !inStateDirectory && retained.snapshot == nil && retained.records.isEmpty {
      throw .unreadable(
        "\(path) holds no journal: give the daemon's state directory (--state-dir) or a copy of it")
    }
    var versions: [JournalRecord] = []
    versions.reserveCapacity(retained.records.count)
    for entry in retained.records {
      do {
        versions.append(try entry.decoded())
      } catch {
        throw .unreadable("cannot read the record of version \(entry.version) in \(entry.path): \(error)")
      }
    }
    self.init(
      base: retained.snapshot?.state, baseVersion: retained.baseVersion, baseSchema: retained.snapshot?.schema ?? 1,
      baseFormat: retained.snapshot?.format ?? JournalFormat.current, versions: versions)
  }

  /// The records `tcactl log --json` printed, one JSON object per line,
  /// after `base`, the state just before the first (`tcactl get --at V
  /// --json` prints it) in schema `baseSchema`; without `base` the log
  /// must start at version 1, on the app's initial state.
  ///
  /// - Throws: ``ReplayError/unreadable(_:)`` naming the line.
  public init(log text: String, base: JSONValue? = nil, baseSchema: Int = 1) throws(ReplayError) {
    var versions: [JournalRecord] = []
    for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      guard !line.allSatisfy(\.isWhitespace) else { continue }
      let json: JSONValue
      do {
        json = try JSONParser.parse(Array(line.utf8))
      } catch {
        throw .unreadable("line \(index + 1) of the log is not JSON: \(error)")
      }
      guard case .object(let object) = json, case .int(let version)? = object["version"], version > 0,
        case .int(let time)? = object["time"], let action = object["action"], let patch = object["patch"]
      else {
        throw .unreadable(
          "line \(index + 1) of the log is not a record of `tcactl log --json`: expected an object with "
            + "\"version\", \"time\", \"action\" and \"patch\"")
      }
      if let previous = versions.last, previous.version + 1 != UInt64(version) {
        throw .unreadable(
          "line \(index + 1) of the log is version \(version), but the line before it is \(previous.version): "
            + "the records must be contiguous")
      }
      versions.append(
        JournalRecord(
          version: UInt64(version), time: Int64(time), origin: object["origin"] ?? .null, action: action,
          inputs: object["inputs"], patch: patch))
    }
    let first = versions.first?.version ?? 1
    if base == nil && first != 1 {
      throw .unreadable(
        "the log starts at version \(first), after the initial state: give the state at version \(first - 1) as "
          + "its base (`tcactl get --at \(first - 1) --json` prints it)")
    }
    self.init(base: base, baseVersion: first - 1, baseSchema: baseSchema, versions: versions)
  }
}
