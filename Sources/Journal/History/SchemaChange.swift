import JSON

/// The record of a migration: the daemon of a newer build found the state
/// in an older schema of the app and migrated it (docs/DURABILITY.md,
/// "Schema versions and migrations").
///
/// It is a record like any other — a version of its own, with the patch
/// from the old state to the migrated one — so versions carry on across the
/// upgrade, a subscriber resuming across it is sent that patch, and
/// `tcactl log` lists it:
///
/// ```
/// {"action":{"$migration":{"from":1,"to":2}},"origin":{"build":"kettled 1.1.0","migration":{"from":1,"to":2}},"patch":[…],…}
/// ```
///
/// The records before it hold actions and patches of the old schema; those
/// after it, of the new. The action's member name begins with `$`, which no
/// Swift enumeration case does, so it is never an app's action.
public struct SchemaChange: Sendable, Hashable {
  /// The schema the state was in.
  public let from: Int
  /// The schema it was migrated to.
  public let to: Int

  public init(from: Int, to: Int) {
    self.from = from
    self.to = to
  }

  static let actionKey = "$migration"

  /// The record of this change at `version`: `patch` takes the old state to
  /// the new; `build` names the build that migrated (`name version`).
  public func record(version: UInt64, time: Int64, patch: JSONValue, build: String) -> JournalRecord {
    let versions = JSONValue.object(["from": .int(from), "to": .int(to)])
    return JournalRecord(
      version: version, time: time, origin: .object(["build": .string(build), "migration": versions]),
      action: .object([Self.actionKey: versions]), patch: patch)
  }

  /// The change a record's action describes, if it is a migration's.
  public init?(action: JSONValue) {
    guard case .object(let object) = action, object.count == 1,
      case .object(let versions)? = object[Self.actionKey],
      case .int(let from)? = versions["from"], case .int(let to)? = versions["to"]
    else { return nil }
    self.init(from: from, to: to)
  }

  /// "schema 1 → 2", as `tcactl log` shows the record's action.
  public var summary: String { "schema \(from) → \(to)" }
}

extension JournalEntry {
  /// The migration this record is, read only if its payload begins as a
  /// migration record's does (a comparison of a few bytes, so that the
  /// schema of a million records is found without parsing them).
  public var schemaChange: SchemaChange? {
    let prefix = #"{"action":{"$migration":"#.utf8
    guard payload.count > prefix.count, payload.starts(with: prefix), let action = try? action() else { return nil }
    return SchemaChange(action: action)
  }
}

extension RecoveredJournal {
  /// The schema the state at ``lastVersion`` is in: the snapshot's (1
  /// without one), or that of the last migration recorded after it.
  public var schema: Int {
    records.reversed().lazy.compactMap(\.schemaChange).first?.to ?? snapshot?.schema ?? 1
  }
}
