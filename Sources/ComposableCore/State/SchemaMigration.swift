import JSON

/// One step of an app's schema: how state and actions written in schema
/// version `from` become those of version `from + 1`, in Swift, against a
/// frozen copy of the old types (the way Lamdera keeps every deploy's old
/// types beside the new ones):
///
/// ```swift
/// // The state as schema 1 had it, kept as it was.
/// enum KettleV1 {
///   struct State: Decodable { var water: String; var cups: Int }
///   enum Action: Decodable { case switchOnTapped, pour(Int), boiled }
/// }
///
/// SchemaMigration(from: 1, state: { (old: KettleV1.State) in
///   Kettle.State(water: Water(rawValue: old.water) ?? .cold, cupsPoured: old.cups)
/// }, action: { (old: KettleV1.Action) -> Kettle.Action? in
///   switch old {
///   case .switchOnTapped: .switchOnTapped
///   case .pour(let cups): .pour(cups: cups)
///   case .boiled: .boiled
///   }
/// })
/// ```
///
/// The closures' types are the old and the new types, so the compiler checks
/// that a migration reads what the old build wrote and gives what the next
/// one reads: JSON that does not decode as the old type, or a new value that
/// does not encode, is an error naming the step. An action that has no
/// counterpart in the new schema maps to `nil`.
///
/// The daemon migrates the state it recovers, once, when it starts on data
/// of an older schema (docs/DURABILITY.md, "Schema versions and migrations"); `verify` and
/// the journal's replay in tests migrate recorded actions to replay them.
public struct SchemaMigration: Sendable {
  /// The schema version this step reads; it writes `from + 1`.
  public let from: Int
  private let migrateState: @Sendable (JSONValue) throws -> JSONValue
  private let migrateAction: @Sendable (JSONValue) throws -> JSONValue?

  /// A step from schema `from` to `from + 1`: `state` turns the old state
  /// into the new one, `action` an old action into the new one (or `nil`).
  public init<
    OldState: Decodable & SendableMetatype, NewState: Encodable & SendableMetatype,
    OldAction: Decodable & SendableMetatype, NewAction: Encodable & SendableMetatype
  >(
    from: Int,
    state: @escaping @Sendable (OldState) throws -> NewState,
    action: @escaping @Sendable (OldAction) throws -> NewAction?
  ) {
    self.from = from
    self.migrateState = { json in
      try JSONValueEncoder.encode(state(JSONValueDecoder.decode(OldState.self, from: json)))
    }
    self.migrateAction = { json in
      try action(JSONValueDecoder.decode(OldAction.self, from: json)).map { try JSONValueEncoder.encode($0) }
    }
  }

  /// A step that changes the state only: every action keeps its JSON.
  public init<OldState: Decodable & SendableMetatype, NewState: Encodable & SendableMetatype>(
    from: Int, state: @escaping @Sendable (OldState) throws -> NewState
  ) {
    self.from = from
    self.migrateState = { json in
      try JSONValueEncoder.encode(state(JSONValueDecoder.decode(OldState.self, from: json)))
    }
    self.migrateAction = { $0 }
  }

  /// The state `json`, of schema ``from``, in schema `from + 1`.
  public func migrate(state json: JSONValue) throws(SchemaMigrationError) -> JSONValue {
    do {
      return try migrateState(json)
    } catch {
      throw .failed(step: from, subject: "the state", reason: "\(error)")
    }
  }

  /// The action `json`, of schema ``from``, in schema `from + 1`; `nil` when
  /// it has no counterpart there.
  public func migrate(action json: JSONValue) throws(SchemaMigrationError) -> JSONValue? {
    do {
      return try migrateAction(json)
    } catch {
      throw .failed(step: from, subject: "the action \(CanonicalJSON.text(json))", reason: "\(error)")
    }
  }
}

/// An app's schema: its current version and the steps from each older one
/// it still reads.
public struct AppSchema: Sendable {
  /// The version this build writes.
  public let version: Int
  /// The steps, each from its ``SchemaMigration/from`` to the next.
  public let migrations: [SchemaMigration]

  public init(version: Int, migrations: [SchemaMigration]) {
    self.version = version
    self.migrations = migrations
  }

  /// The steps that take data of schema `old` to ``version``, in order.
  ///
  /// - Throws: ``SchemaMigrationError`` when `old` is newer than this build
  ///   (data of a newer build) or a step is missing, naming it.
  public func steps(from old: Int) throws(SchemaMigrationError) -> [SchemaMigration] {
    guard old <= version else { throw .newerThanBuild(data: old, build: version) }
    return try (old..<version).map { (from: Int) throws(SchemaMigrationError) -> SchemaMigration in
      guard let step = migrations.first(where: { $0.from == from }) else { throw .missingMigration(from: from) }
      return step
    }
  }

  /// The state `json`, of schema `old`, in this build's schema.
  public func migrate(state json: JSONValue, from old: Int) throws(SchemaMigrationError) -> JSONValue {
    var json = json
    for step in try steps(from: old) { json = try step.migrate(state: json) }
    return json
  }

  /// The action `json`, of schema `old`, in this build's schema; `nil` when
  /// a step drops it.
  public func migrate(action json: JSONValue, from old: Int) throws(SchemaMigrationError) -> JSONValue? {
    var json: JSONValue? = json
    for step in try steps(from: old) {
      guard let current = json else { return nil }
      json = try step.migrate(action: current)
    }
    return json
  }
}

/// Why data of another schema cannot be brought to this build's.
public enum SchemaMigrationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The data is of schema `data`, newer than the build's `build`.
  case newerThanBuild(data: Int, build: Int)
  /// The app has no migration from schema `from` to `from + 1`.
  case missingMigration(from: Int)
  /// The migration from schema `step` failed on `subject`, for `reason`.
  case failed(step: Int, subject: String, reason: String)

  public var description: String {
    switch self {
    case .newerThanBuild(let data, let build):
      "the data is in schema \(data), newer than this build's schema \(build): run a build of schema \(data) or newer"
    case .missingMigration(let from):
      "there is no migration from schema \(from) to \(from + 1): add SchemaMigration(from: \(from), …) to the "
        + "app's migrations"
    case .failed(let step, let subject, let reason):
      "the migration from schema \(step) to \(step + 1) failed on \(subject): \(reason)"
    }
  }
}
