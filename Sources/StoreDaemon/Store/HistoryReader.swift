import ActionLanguage
import ComposableCore
import Dispatch
import JSON
import Journal
import Replay
import Wire

/// Answers `log` and `get` with `at` from the journal, on a thread of its own:
/// a read may take a whole segment (up to 64 MiB) from disk, and the store
/// loop must never wait for a person's `tcactl log`.
///
/// Every request carries the version to read through, the last version the
/// loop has made durable and published, so the answer never shows a version
/// a client has not been shown (docs/PROTOCOL.md, "The action log").
struct HistoryReader: Sendable {
  enum Request: Sendable {
    /// The records after `since` (or all retained), at most the last `last`
    /// of them, up to `through`.
    case log(since: UInt64?, last: Int?, through: UInt64)
    /// The state at `version` (before `current`, the loop's version), at
    /// `pointer`.
    case state(version: UInt64, pointer: JSONPointer, current: UInt64)
    /// The state at `version` with `edit`, replayed with `dependencies`,
    /// from the journal up to `through`.
    case whatIf(version: UInt64, edit: ReplayEdit, through: UInt64, dependencies: DependencyValues)
    /// A page of the daemon's stores (``StoreCatalog``).
    case stores(StoreCatalog.Query)
  }

  enum Answer: Equatable, Sendable {
    case log(records: [LogEntry], through: UInt64, more: Bool)
    case state(version: UInt64, path: String, value: JSONValue)
    case whatIf(WhatIfOutcome, edited: UInt64)
    case stores([StoreListing], more: Bool)
  }

  /// Replays a history with an edit through the app's reducers
  /// (``JournalReplay/whatIf(_:at:_:)``), with the settings given.
  typealias WhatIf =
    @Sendable (RecordedHistory, UInt64, ReplayEdit, DependencyValues) throws(ReplayError)
    -> WhatIfOutcome

  /// A `log` answer holds at most this many records …
  static let pageRecords = 1000
  /// … and about this many bytes of them (always at least one record), so a
  /// page is one modest frame; the client asks again for the rest.
  let pageBytes: Int

  let reader: JournalReader
  /// The state at version 0, for a journal that starts there.
  let initialState: JSONValue
  let schema: ActionSchema
  let whatIf: WhatIf
  private let queue = DispatchQueue(label: "storedaemon.history")

  /// `pageBytes` is kept well under a client's buffer (`--client-buffer`),
  /// so that a page always fits in it.
  init(
    reader: JournalReader, initialState: JSONValue, schema: ActionSchema, pageBytes: Int = 1 << 20,
    whatIf: @escaping WhatIf
  ) {
    self.reader = reader
    self.whatIf = whatIf
    self.initialState = initialState
    self.schema = schema
    self.pageBytes = pageBytes
  }

  /// The history reader of `App`'s journal: what-ifs replay through a
  /// reducer this reader's thread makes of its own; a page of the log is
  /// kept to half a client's buffer, and at most 1 MiB.
  init<App: HostedApp>(of app: App.Type, journal: JournalDirectory, options: DaemonOptions) {
    self.init(
      reader: journal.reader.upgrading(.reencoding(state: App.Root.State.self, action: App.Root.Action.self)),
      initialState: (try? CanonicalJSON.value(of: App.initialState)) ?? .null,
      schema: App.Root.Action.actionSchema, pageBytes: min(1 << 20, options.outboxLimit / 2),
      whatIf: { history, version, edit, dependencies throws(ReplayError) in
        let replay = JournalReplay(
          reducer: App.makeRoot(), initialState: App.initialState, schema: App.schema, dependencies: dependencies)
        return try replay.whatIf(history, at: version, edit)
      })
  }

  /// An answer with its frame for request `id`, encoded on the reader's
  /// thread so that the store loop only queues the bytes.
  struct Reply: Sendable {
    let answer: Answer
    let frame: [UInt8]
  }

  /// Answers request `id` on the reader's thread and hands the result to
  /// `deliver` there.
  func answer(
    _ request: Request, id: Int, then deliver: @escaping @Sendable (Result<Reply, MessageError>) -> Void
  ) {
    queue.async {
      #if DEBUG
        Self.waitAtGateIfAsked()
      #endif
      deliver(answer(request).map { answer in Reply(answer: answer, frame: Self.frame(answer, id: id)) })
    }
  }

  static func frame(_ answer: Answer, id: Int) -> [UInt8] {
    switch answer {
    case .log(let records, let through, let more):
      MessageCodec.frame(ServerMessage.log(id: id, records: records, through: through, more: more))
    case .state(let version, let path, let value):
      MessageCodec.frame(ServerMessage.state(id: id, version: version, path: path, value: value))
    case .whatIf(let outcome, let edited):
      MessageCodec.frame(
        ServerMessage.whatIf(
          id: id, version: outcome.version, edited: edited, recorded: outcome.recorded, patch: outcome.patch,
          notes: outcome.notes))
    case .stores(let stores, let more):
      MessageCodec.frame(ServerMessage.stores(id: id, stores: stores, more: more))
    }
  }

  /// Answers `request` on the calling thread.
  func answer(_ request: Request) -> Result<Answer, MessageError> {
    do throws(MessageError) {
      switch request {
      case .log(let since, let last, let through):
        return .success(try log(since: since, last: last, through: through))
      case .state(let version, let pointer, let current):
        return .success(try state(at: version, pointer: pointer, current: current))
      case .whatIf(let version, let edit, let through, let dependencies):
        return .success(try replay(at: version, edit, through: through, dependencies: dependencies))
      case .stores(let query):
        let page = try StoreCatalog(upgrade: reader.upgrade, schema: schema).list(query)
        return .success(.stores(page.stores, more: page.more))
      }
    } catch {
      return .failure(error)
    }
  }

  private func log(since: UInt64?, last: Int?, through: UInt64) throws(MessageError) -> Answer {
    if let since, since > through {
      throw MessageError(
        .versionUnavailable, "version \(since) has not been reached: the state is at version \(through)")
    }
    let oldest = try journal { () throws(JournalError) in try reader.oldestRetainedVersion() } ?? through + 1
    var first = since.map { $0 + 1 } ?? oldest
    if let last { first = max(first, through >= UInt64(last) ? through - UInt64(last) + 1 : 1) }
    if since == nil { first = max(first, oldest) }
    guard first <= through else { return .log(records: [], through: through, more: false) }
    guard first >= oldest else {
      throw MessageError(
        .versionUnavailable,
        "the journal no longer holds version \(first): versions before \(oldest) were compacted into a snapshot; "
          + "ask for the records since version \(oldest - 1) or later")
    }
    let records = try journal { () throws(JournalError) in
      try reader.records(from: first, through: through, limit: Self.pageRecords)
    }
    var entries: [LogEntry] = []
    var bytes = 0
    for record in records {
      let entry = Self.entry(record, schema: schema)
      bytes += CanonicalJSON.encode(entry.json).count
      if !entries.isEmpty && bytes > pageBytes { break }
      entries.append(entry)
    }
    return .log(records: entries, through: through, more: (entries.last?.version ?? through) < through)
  }

  private func state(at version: UInt64, pointer: JSONPointer, current: UInt64) throws(MessageError) -> Answer {
    guard version <= current else {
      throw MessageError(
        .versionUnavailable, "version \(version) has not been reached: the state is at version \(current)")
    }
    let document = try journal { () throws(JournalError) in
      try reader.state(at: version, initialState: initialState)
    }
    guard let value = pointer.value(in: document) else {
      throw MessageError(
        .invalidPath,
        "no state at '\(pointer)' at version \(version); \(Publisher.whatExists(along: pointer, in: document))")
    }
    return .state(version: version, path: pointer.description, value: value)
  }

  /// The state at `version` as recorded and with `edit`: the retained
  /// journal through `through`, replayed.
  private func replay(
    at version: UInt64, _ edit: ReplayEdit, through: UInt64, dependencies: DependencyValues
  ) throws(MessageError) -> Answer {
    var history: RecordedHistory
    do {
      history = try RecordedHistory(stateDirectory: reader.directory)
    } catch {
      throw MessageError(.journal, "the journal could not be read: \(error)")
    }
    if let last = history.versions.lastIndex(where: { $0.version <= through }) {
      history.versions.removeSubrange((last + 1)...)
    } else {
      history.versions.removeAll()
    }
    guard edit.version > history.baseVersion else {
      throw MessageError(
        .versionUnavailable,
        "version \(edit.version) is no longer in the journal: versions up to \(history.baseVersion) were compacted "
          + "into a snapshot, so the oldest action that can be left out or replaced is version "
          + "\(history.baseVersion + 1)")
    }
    do {
      return .whatIf(try whatIf(history, version, edit, dependencies), edited: edit.version)
    } catch {
      switch error {
      case .invalidRequest(let reason): throw MessageError(.versionUnavailable, reason)
      default: throw MessageError(.journal, "the journal could not be replayed: \(error)")
      }
    }
  }

  /// A journal record as the log shows it.
  static func entry(_ record: JournalRecord, schema: ActionSchema) -> LogEntry {
    LogEntry(
      version: record.version, time: record.time, origin: record.origin, action: record.action,
      inputs: record.inputs,
      summary: SchemaChange(action: record.action)?.summary ?? ActionPath.describe(record.action, schema: schema),
      patch: record.patch)
  }

  /// Runs a journal read; a version it lacks is the client's to hear of, any
  /// other failure is the journal's.
  private func journal<T>(_ body: () throws(JournalError) -> T) throws(MessageError) -> T {
    do {
      return try body()
    } catch .versionNotRetained(let requested, let oldest) {
      let advice = oldest.map { "; the oldest version kept is \($0)" } ?? ""
      throw MessageError(
        .versionUnavailable,
        "version \(requested) is no longer in the journal: it was compacted into a snapshot\(advice)")
    } catch .versionNotWritten(let requested, let last) {
      throw MessageError(
        .versionUnavailable, "version \(requested) is not in the journal yet: it ends at version \(last)")
    } catch {
      throw MessageError(.journal, "the journal could not be read: \(error)")
    }
  }
}
