import Foundation
import JSON
import TestSupport
import Testing
import Wire

/// tcaweb in front of a replicated store: given the store's sockets, a
/// page's send goes on to the leader through a standby; given a standby
/// alone, the page hears who leads in the refusal's `leader` field.
@Suite(.ownThreads, .serialized, .enabled(if: EtcdCluster.isInstalled, "etcd is installed by .ci/run (etcd-server)"))
struct WebFollowsTheLeaderTests {
  @Test func aSendFromThePageReachesTheLeaderThroughAStandby() throws {
    let store = try ReplicatedStore(storeID: "web")
    let leader = try store.waitForLeader()
    let standby = 1 - leader
    let leaderSocket = store.daemons[leader].socketPath
    let standbySocket = store.daemons[standby].socketPath
    let web = try WebClientProcess(socket: "\(standbySocket),\(leaderSocket)")
    let sent = try web.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#)
    #expect(sent.status == 200, "\(sent.text)")
    #expect(try JSONParser.parse(sent.body)[path: "version"] == .int(1))
    // Reads are answered by the first daemon that answers, the standby.
    try store.waitForVersion(1, at: standby)
    let state = try web.post(#"{"type":"get","path":"/counter/count"}"#)
    #expect(try JSONParser.parse(state.body)[path: "state"] == .int(1))

    let alone = try WebClientProcess(socket: standbySocket)
    let refused = try alone.post(#"{"type":"send","path":"counter.incrementButtonTapped"}"#)
    #expect(refused.status == 400)
    let refusal = try JSONParser.parse(refused.body)
    #expect(refusal[path: "code"] == .string("not_leader"))
    #expect(refusal[path: "leader", "socket"] == .string(leaderSocket))
    #expect(refusal[path: "leader", "node"] == .string("node\(leader)"))
  }
}
