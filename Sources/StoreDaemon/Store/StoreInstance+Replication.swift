import Glibc
import JSON
import Journal
import Platform
import Replication
import Wire

/// A replicated store as a standby and when it takes over (``Replica``).
/// A standby reduces nothing: it applies the log's patches,
/// as recovery does, publishes each version to its subscribers with the
/// same action, and writes the records to its own journal in batches like
/// a leader's, so that it holds the same state, versions, epoch and diff
/// history. Its typed state is decoded once, when it takes over.
extension StoreInstance {
  /// Applies the log's records after the loop's version, in the open batch.
  func applyReplicated(_ records: [JournalRecord]) {
    guard let replica = committer.replica, !committer.replicates else { return }
    for record in records where record.version > publisher.version {
      guard record.version == publisher.version + 1 else {
        replica.stepDown("the log gave version \(record.version) after \(publisher.version)")
      }
      let change = record.schemaChange
      if let change, change.to > App.schemaVersion {
        // Following it, this build would hold a state it cannot decode;
        // restarted, it would stop here again: it stops for good (65).
        Log.error(
          "replication: the store '\(replica.options.storeID)' migrated its state from schema \(change.from) to "
            + "\(change.to) at version \(record.version), and this build, \(App.build), is of schema "
            + "\(App.schemaVersion): stopping; start a build of schema \(change.to) or newer on this node, and it "
            + "follows the log (docs/OPERATIONS.md, \"Rolling upgrades\")")
        _exit(65)
      }
      let document: JSONValue
      do {
        document = try JSONPatch.apply(JSONPatch.operations(from: record.patch), to: publisher.document)
      } catch {
        replica.stepDown(
          "version \(record.version) of the log does not apply to the state at \(publisher.version): \(error)")
      }
      var copy = record
      copy.canonical = nil
      append(copy, leadingTo: document)
      if let change { committer.schema = change.to }
    }
    store.restore(state: store.state, version: publisher.version, forgettingRequestsFrom: store.nextRequestID)
  }

  /// The standby leads from now on, its state decoded; false if it already
  /// did or is not replicated. The loop then starts the workers, and the
  /// features that were waiting on an effect of the old leader hear that it
  /// is gone (their recovery actions, as after a restart). Everything
  /// applied is durable by now (the command does not reduce, so the loop
  /// made it so first).
  ///
  /// A store of an older schema than this build's is migrated first: the
  /// migration is the leader's first version, appended to the log like any
  /// other, so the store's other daemons follow it (or, of an older build,
  /// stop).
  func takeOver() -> Bool {
    guard let replica = committer.replica, !committer.replicates else { return false }
    let before = publisher.document
    let change =
      committer.schema == App.schemaVersion ? nil : SchemaChange(from: committer.schema, to: App.schemaVersion)
    var document = before
    if let change {
      do {
        document = try App.schema.migrate(state: before, from: change.from)
      } catch {
        replica.stepDown(
          "cannot migrate the store's state at version \(publisher.version) from schema \(change.from) to "
            + "\(change.to): \(error)")
      }
    }
    let state: App.Root.State
    do {
      state = try CanonicalJSON.decode(App.Root.State.self, from: document)
    } catch {
      replica.stepDown(
        "the store's state at version \(publisher.version) does not decode in this build of \(App.name): \(error)")
    }
    committer.replicates = true
    if let change {
      let version = publisher.version + 1
      let record = change.record(
        version: version, time: WallClock.milliseconds(),
        patch: JSONPatch.json(JSONPatch.diff(from: before, to: document)),
        build: App.build)
      turn.open()
      append(record, leadingTo: document)
      committer.schema = change.to
      Log.write(
        .info,
        "replication: migrated the store's state from schema \(change.from) to \(change.to) at version \(version), "
          + "its first version as leader", fields: [("VERSION", String(version))])
    }
    turn.restart(at: state)
    return true
  }

  /// Publishes and records, in the open batch, a version that was not
  /// reduced here: a record of the log, or the migration a new leader
  /// makes; `document` is the state it leads to.
  private func append(_ record: JournalRecord, leadingTo document: JSONValue) {
    publisher.publish(
      version: record.version, sent: nil, action: { record.action },
      update: { published in
        defer { published = document }
        return JSONPatch.diff(from: published, to: document)
      })
    committer.record(record)
  }
}
