import JSON
import Journal

/// One store's journal replicated through etcd: the leader appends each
/// batch of records in transactions that commit only while it still holds
/// the store's leader key and the log's head is the version it expects
/// (the fencing: a deposed leader's append is refused by etcd itself,
/// whatever its clock says), and followers read the records back in
/// order. docs/OPERATIONS.md, "A store across machines", lists the keys.
///
/// Under `/storedaemon/<store>/`:
///
/// | key | value |
/// |---|---|
/// | `leader` | the leader's ``LeaderInfo`` as JSON, attached to its lease |
/// | `epoch` | the store's epoch, written once |
/// | `head` | the last version appended, in decimal |
/// | `base` | the snapshot the log starts after, as JSON: `{"bytes":…,"chunks":…,"schema":…,"version":…}` |
/// | `snapshot/<version>/<n>` | the snapshot's canonical JSON state, in pieces |
/// | `log/<version>` | records up to `<version>`, framed as in a journal segment (``JournalFrames``) |
///
/// Versions in keys have 20 digits, so that keys sort as versions do.
///
/// Used from one thread at a time, like the ``EtcdClient`` it holds.
public final class ReplicatedLog {
  /// The bytes of records one transaction carries at most: etcd refuses a
  /// request over 1.5 MiB by default (`--max-request-bytes`), and the
  /// gateway's base64 is decoded before that is counted.
  public static let transactionBytes = 1 << 20
  /// The largest record a store in etcd takes, with room for the rest of
  /// its transaction.
  public static let maximumRecordBytes = transactionBytes - (4 << 10)

  public let storeID: String
  public let client: EtcdClient
  private let prefix: [UInt8]

  public init(storeID: String, client: EtcdClient) {
    self.storeID = storeID
    self.client = client
    prefix = Array("/storedaemon/\(storeID)/".utf8)
  }

  // MARK: The store

  /// What etcd holds of a store: nil when it holds nothing yet.
  public struct Head: Equatable, Sendable {
    public var epoch: String
    /// The last version appended.
    public var version: UInt64
    /// The snapshot the log starts after.
    public var base: Base
    /// The store's revision when this was read.
    public var revision: Int64
  }

  /// The snapshot a log starts after: versions up to it are only in it.
  public struct Base: Equatable, Sendable {
    public var version: UInt64
    /// The app's schema version the state is in.
    public var schema: Int
    public var chunks: Int
    public var bytes: Int
  }

  /// The store's epoch, head and base, read together.
  public func head() throws(ReplicationError) -> Head? {
    // `base` < `epoch` < `head` < `leader`: one range, one revision.
    let (values, revision) = try etcd { () throws(EtcdError) in
      try client.range(key("base"), end: key("head") + [0])
    }
    var fields: [String: [UInt8]] = [:]
    for value in values { fields[String(decoding: value.key.dropFirst(prefix.count), as: UTF8.self)] = value.value }
    guard let epochBytes = fields["epoch"] else { return nil }
    guard let headBytes = fields["head"], let version = UInt64(String(decoding: headBytes, as: UTF8.self)),
      let baseBytes = fields["base"], let base = Self.base(from: baseBytes)
    else {
      throw .damaged("the store '\(storeID)' in etcd has an epoch but no readable head or base")
    }
    return Head(epoch: String(decoding: epochBytes, as: UTF8.self), version: version, base: base, revision: revision)
  }

  // MARK: Leadership

  /// The leader's key as this daemon created it: the lease keeps it, and
  /// its creation revision fences every append.
  public struct Leadership: Equatable, Sendable {
    public var lease: Int64
    public var createRevision: Int64
    public var ttl: Int
  }

  /// The leader, if there is one, and its key's creation revision.
  public func leader() throws(ReplicationError) -> (info: LeaderInfo, createRevision: Int64)? {
    let (values, _) = try etcd { () throws(EtcdError) in try client.range(key("leader")) }
    guard let value = values.first else { return nil }
    return (LeaderInfo(json: value.value), value.createRevision)
  }

  /// Becomes the leader if there is none: takes a lease of `ttl` seconds
  /// and creates the leader key with it. Nil when another daemon leads.
  public func campaign(as info: LeaderInfo, ttl: Int) throws(ReplicationError) -> Leadership? {
    let lease = try etcd { () throws(EtcdError) in try client.grantLease(ttl: ttl) }
    let leaderKey = key("leader")
    let (succeeded, revision) = try etcd { () throws(EtcdError) in
      try client.transaction(
        comparing: [.createRevision(of: leaderKey, equals: 0)],
        success: [.put(leaderKey, info.json, lease: lease.id)])
    }
    guard succeeded else {
      try? client.revoke(lease.id)
      return nil
    }
    return Leadership(lease: lease.id, createRevision: revision, ttl: lease.ttl)
  }

  /// Renews the leadership's lease; false once it has expired (another
  /// daemon may lead by now).
  public func keepAlive(_ leadership: Leadership) throws(ReplicationError) -> Bool {
    try etcd { () throws(EtcdError) in try client.keepAlive(leadership.lease) } > 0
  }

  /// Gives the leadership up at once (a clean stop), so a standby need not
  /// wait for the lease to expire.
  public func resign(_ leadership: Leadership) {
    try? client.revoke(leadership.lease)
  }

  // MARK: Writing

  /// Starts the store's log after `version`, whose state `state` (canonical
  /// JSON, of schema `schema`) is its base, in epoch `epoch`; false if the
  /// store exists already.
  public func initialize(
    epoch: String, version: UInt64, schema: Int, state: [UInt8], as leadership: Leadership
  ) throws(ReplicationError) -> Bool {
    try writeSnapshot(
      version: version, schema: schema, state: state, as: leadership,
      last: [.createRevision(of: key("epoch"), equals: 0)],
      then: [
        .put(key("epoch"), Array(epoch.utf8), lease: nil), .put(key("head"), Array(String(version).utf8), lease: nil),
      ])
  }

  /// Appends `records`, which follow version `head`, as the leader.
  /// Returns the new head once every record is committed; records are
  /// committed in order, a transaction of up to ``transactionBytes`` at a
  /// time, so a failure can leave the first of them committed, never a
  /// later one without an earlier.
  ///
  /// - Throws: ``ReplicationError/deposed(_:)`` when the leader key is no
  ///   longer this daemon's or the head moved (nothing of the failed
  ///   transaction was written); ``ReplicationError/etcd(_:)`` when etcd did
  ///   not answer within the client's patience, after which the outcome of
  ///   the last transaction is unknown.
  public func append(
    _ records: [JournalRecord], after head: UInt64, as leadership: Leadership
  ) throws(ReplicationError) -> UInt64 {
    var head = head
    var start = records.startIndex
    while start < records.endIndex {
      var end = start
      var bytes: [UInt8] = []
      while end < records.endIndex {
        let frame = JournalFrames.encode(CollectionOfOne(records[end]))
        if end > start && bytes.count + frame.count > Self.transactionBytes { break }
        bytes += frame
        end += 1
      }
      let last = records[end - 1].version
      try commit(bytes, from: head, to: last, as: leadership)
      head = last
      start = end
    }
    return head
  }

  /// One fenced transaction: the log key of `last` and the head.
  private func commit(_ bytes: [UInt8], from head: UInt64, to last: UInt64, as leadership: Leadership)
    throws(ReplicationError)
  {
    let logKey = key("log/" + Self.padded(last))
    let headValue = Array(String(last).utf8)
    let (succeeded, _) = try etcd { () throws(EtcdError) in
      try client.transaction(
        comparing: [
          .createRevision(of: key("leader"), equals: leadership.createRevision),
          .value(of: key("head"), equals: Array(String(head).utf8)),
        ],
        success: [.put(logKey, bytes, lease: nil), .put(key("head"), headValue, lease: nil)])
    }
    if succeeded { return }
    // A retry after a member failed to answer finds its own write applied.
    let (values, _) = try etcd { () throws(EtcdError) in try client.range(key("head"), end: key("head") + [0]) }
    let (logged, _) = try etcd { () throws(EtcdError) in try client.range(logKey) }
    if values.first?.value == headValue, logged.first?.value == bytes,
      let current = try leader(), current.createRevision == leadership.createRevision
    {
      return
    }
    let now = values.first.map { String(decoding: $0.value, as: UTF8.self) } ?? "missing"
    let holder = try leader()
    if let holder, holder.createRevision == leadership.createRevision {
      throw .deposed("the log's head is \(now), not \(head) as this leader expected")
    }
    throw .deposed(
      holder.map { "\($0.info.node) leads the store '\(storeID)' now" }
        ?? "the leader key of the store '\(storeID)' is gone (its lease expired)")
  }

  /// Makes the state at `version` the log's base (after a local snapshot):
  /// the records up to it and the older snapshot are deleted, so the store's
  /// keys stay bounded, and etcd's history before is compacted. Returns
  /// the revision compacted to.
  @discardableResult
  public func compact(version: UInt64, schema: Int, state: [UInt8], as leadership: Leadership)
    throws(ReplicationError) -> Int64
  {
    _ = try writeSnapshot(version: version, schema: schema, state: state, as: leadership, last: [], then: [])
    let (_, revision) = try etcd { () throws(EtcdError) in try client.range(key("base")) }
    do {
      try client.compact(to: revision)
    } catch .rejected(_, let message) where message.contains("compacted") {
      // Something else (another store, etcd's own auto-compaction) compacted
      // the history at least as far already.
    } catch {
      throw .etcd(error)
    }
    return revision
  }

  /// Writes the snapshot's pieces, the last of them in one transaction
  /// with the new base, `then`, and the deletion of what the base makes
  /// unneeded, fenced by the leadership and `last`.
  private func writeSnapshot(
    version: UInt64, schema: Int, state: [UInt8], as leadership: Leadership,
    last comparisons: [EtcdClient.Comparison], then operations: [EtcdClient.Operation]
  ) throws(ReplicationError) -> Bool {
    let fence = EtcdClient.Comparison.createRevision(of: key("leader"), equals: leadership.createRevision)
    let piece = Self.transactionBytes / 2
    let chunks = stride(from: 0, to: max(state.count, 1), by: piece).map {
      Array(state[$0..<min($0 + piece, state.count)])
    }
    let directory = "snapshot/" + Self.padded(version) + "/"
    for (index, chunk) in chunks.enumerated().dropLast() {
      // Fenced by `comparisons` too: a refused start writes no piece.
      let written = try etcd { () throws(EtcdError) in
        try client.transaction(
          comparing: [fence] + comparisons,
          success: [.put(key(directory + Self.padded(index, digits: 6)), chunk, lease: nil)]
        ).succeeded
      }
      if !written && !comparisons.isEmpty { return false }
      guard written else { throw .deposed("the leader key of the store '\(storeID)' is no longer this daemon's") }
    }
    let base = CanonicalJSON.encode(
      .object([
        "version": .int(Int(version)), "schema": .int(schema), "chunks": .int(chunks.count),
        "bytes": .int(state.count),
      ]))
    let lastPiece = key(directory + Self.padded(chunks.count - 1, digits: 6))
    let succeeded = try etcd { () throws(EtcdError) in
      try client.transaction(
        comparing: [fence] + comparisons,
        success: operations + [
          .delete(key("log/"), end: key("log/" + Self.padded(version + 1))),
          .delete(key("snapshot/"), end: key(directory)),
          // Pieces past this snapshot's last, left by an attempt at the same
          // version that was cut short, would be read as part of it.
          .delete(key(directory + Self.padded(chunks.count, digits: 6)), end: EtcdClient.prefixEnd(of: key(directory))),
          .put(lastPiece, chunks[chunks.count - 1], lease: nil), .put(key("base"), base, lease: nil),
        ]
      ).succeeded
    }
    if !succeeded && comparisons.isEmpty {
      throw .deposed("the leader key of the store '\(storeID)' is no longer this daemon's")
    }
    return succeeded
  }

  // MARK: Reading

  /// The records after `version`, in order, up to the head; and the
  /// store's revision they were read at.
  ///
  /// - Throws: ``ReplicationError/compacted(base:)`` when the log no longer
  ///   holds the records after `version` (read the snapshot instead);
  ///   ``ReplicationError/damaged(_:)`` when they are not contiguous or do
  ///   not decode.
  public func records(after version: UInt64) throws(ReplicationError) -> (records: [JournalRecord], revision: Int64) {
    let (values, revision) = try etcd { () throws(EtcdError) in
      try client.range(key("log/" + Self.padded(version + 1)), end: EtcdClient.prefixEnd(of: key("log/")))
    }
    var records: [JournalRecord] = []
    var expected = version + 1
    for value in values {
      let source = "etcd key " + String(decoding: value.key, as: UTF8.self)
      let decoded: [JournalRecord]
      do {
        decoded = try JournalFrames.decode(value.value, source: source)
      } catch {
        throw .damaged("\(error)")
      }
      for record in decoded where record.version >= expected {
        guard record.version == expected else {
          if records.isEmpty, let head = try head(), head.base.version >= expected {
            throw .compacted(base: head.base.version)
          }
          throw .damaged("\(source) holds version \(record.version) where \(expected) was expected")
        }
        records.append(record)
        expected += 1
      }
    }
    if records.isEmpty, let head = try head(), head.base.version > version {
      throw .compacted(base: head.base.version)
    }
    return (records, revision)
  }

  /// The snapshot the log starts after: its base and the state's bytes,
  /// read at one revision.
  public func snapshot() throws(ReplicationError) -> (base: Base, state: [UInt8])? {
    guard let head = try head() else { return nil }
    let directory = key("snapshot/" + Self.padded(head.base.version) + "/")
    let (values, _) = try etcd { () throws(EtcdError) in
      try client.range(directory, end: EtcdClient.prefixEnd(of: directory))
    }
    guard values.count == head.base.chunks else {
      // Compacted to a newer base meanwhile: read again.
      if let newer = try self.head(), newer.base != head.base { return try snapshot() }
      throw .damaged("the snapshot at version \(head.base.version) has \(values.count) of \(head.base.chunks) pieces")
    }
    let state = values.flatMap(\.value)
    guard state.count == head.base.bytes else {
      throw .damaged("the snapshot at version \(head.base.version) has \(state.count) of \(head.base.bytes) bytes")
    }
    return (head.base, state)
  }

  /// Watches every key of the store after `revision`.
  public func watch(after revision: Int64) throws(ReplicationError) -> EtcdWatch {
    try etcd { () throws(EtcdError) in try client.watch(prefix, end: EtcdClient.prefixEnd(of: prefix), after: revision)
    }
  }

  // MARK: -

  private func key(_ suffix: String) -> [UInt8] { prefix + Array(suffix.utf8) }

  static func padded(_ number: some BinaryInteger, digits: Int = 20) -> String {
    let text = String(number)
    return String(repeating: "0", count: max(0, digits - text.count)) + text
  }

  private static func base(from bytes: [UInt8]) -> Base? {
    guard case .object(let object)? = try? JSONParser.parse(bytes),
      case .int(let version)? = object["version"], case .int(let schema)? = object["schema"],
      case .int(let chunks)? = object["chunks"], case .int(let size)? = object["bytes"]
    else { return nil }
    return Base(version: UInt64(version), schema: schema, chunks: chunks, bytes: size)
  }

  private func etcd<T>(_ body: () throws(EtcdError) -> T) throws(ReplicationError) -> T {
    do {
      return try body()
    } catch {
      throw .etcd(error)
    }
  }
}
