import JSON
import Journal
import Platform
import Replication
import Wire

/// A replicated daemon's store loop as a standby and when it takes over
/// (``Replica``). A standby reduces nothing: it applies the log's patches,
/// as recovery does, publishes each version to its subscribers with the
/// same action, and writes the records to its own journal in batches like
/// a leader's, so that it holds the same state, versions, epoch and diff
/// history. Its typed state is decoded once, when it takes over.
extension StoreLoop {
  /// Applies the log's records after the loop's version, in the open batch.
  func applyReplicated(_ records: [JournalRecord]) {
    guard let replica = committer.replica, !committer.replicates else { return }
    for record in records where record.version > publisher.version {
      guard record.version == publisher.version + 1 else {
        replica.stepDown("the log gave version \(record.version) after \(publisher.version)")
      }
      let document: JSONValue
      do {
        document = try JSONPatch.apply(JSONPatch.operations(from: record.patch), to: publisher.document)
      } catch {
        replica.stepDown(
          "version \(record.version) of the log does not apply to the state at \(publisher.version): \(error)")
      }
      publisher.publish(
        version: record.version, sent: nil, action: { record.action },
        update: { published in
          defer { published = document }
          return JSONPatch.diff(from: published, to: document)
        })
      var copy = record
      copy.canonical = nil
      committer.record(copy)
    }
    store.restore(state: store.state, version: publisher.version, forgettingRequestsFrom: store.nextRequestID)
  }

  /// The standby leads from now on: its state is decoded, its workers
  /// start, and the features that were waiting on an effect of the old
  /// leader hear that it is gone (their recovery actions, as after a
  /// restart). Everything applied is durable by now (the command does not
  /// reduce, so the loop made it so first).
  func takeOver() {
    guard let replica = committer.replica, !committer.replicates else { return }
    let state: App.Root.State
    do {
      state = try CanonicalJSON.decode(App.Root.State.self, from: publisher.document)
    } catch {
      replica.stepDown(
        "the store's state at version \(publisher.version) does not decode in this build of \(App.name): \(error)")
    }
    turn.restart(at: state)
    committer.replicates = true
    supervisor.startAll()
    reduceRecoveryActionsIfNeeded()
  }

  /// What a standby tells a sender: why, for a person, and the leader, for
  /// the client to send to (nil while there is none).
  static func notLeaderMessage(_ replica: Replica) -> (message: String, leader: StoreLeader?) {
    let store = "the store '\(replica.options.storeID)'"
    guard let leader = replica.leader, leader.node != replica.me.node || leader.socket != replica.me.socket else {
      return (
        "the action was not applied: \(App.name) is a standby of \(store), which has no leader right now "
          + "(one takes over within the lease's \(replica.options.leaseTTL) s); send it again then", nil
      )
    }
    return (
      "the action was not applied: \(App.name) is a standby of \(store); send it to the leader, "
        + "\(leader.node), at \(leader.socket)" + (leader.address.map { " or at tcp://\($0)" } ?? ""),
      StoreLeader(node: leader.node, socket: leader.socket, address: leader.address)
    )
  }
}
