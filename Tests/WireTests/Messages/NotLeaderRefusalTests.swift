import Glibc
import JSON
import TestSupport
import Testing

@testable import Wire

/// A standby's `not_leader` refusal names the leader in a field of its
/// own, which a client follows without reading the message's text.
@Suite struct NotLeaderRefusalTests {
  @Test func theRefusalCarriesTheLeaderAsAField() throws {
    let leader = StoreLeader(node: "east", socket: "/run/east/storedaemon.sock", address: "10.0.0.5:7420")
    let refusal = ServerMessage.notLeader(id: 4, message: "send it to the leader", leader: leader)
    let json = refusal.json
    guard case .object(let object) = json else {
      Issue.record("the refusal is not an object: \(json)")
      return
    }
    #expect(object["type"] == .string("error"))
    #expect(object["code"] == .string("not_leader"))
    #expect(object["leader"] == leader.json)
    #expect(
      CanonicalJSON.text(leader.json)
        == #"{"address":"10.0.0.5:7420","node":"east","socket":"/run/east/storedaemon.sock"}"#)
    #expect(try ServerMessage(json: json) == refusal)
    // While there is no leader, the field is left out.
    let leaderless = ServerMessage.notLeader(id: 5, message: "no leader right now", leader: nil)
    guard case .object(let leaderlessObject) = leaderless.json else { return }
    #expect(leaderlessObject["leader"] == nil)
    #expect(try ServerMessage(json: leaderless.json) == leaderless)
    // Another error keeps its shape.
    let other = ServerMessage.error(id: 6, code: .invalidAction, message: "no such action")
    #expect(try ServerMessage(json: other.json) == other)
    // A leader that is not an object is a protocol error, said as such.
    var broken = object
    broken["leader"] = .string("east")
    #expect(throws: MessageError.self) { try ServerMessage(json: .object(broken)) }
  }

  @Test func aClientFindsTheLeaderAmongItsSocketsByTheField() throws {
    let directory = try TemporaryDirectory(prefix: "leader-hint")
    let socket = directory.appending("leader.sock")
    #expect(creat(socket, 0o600) >= 0)
    let paths = ["/elsewhere/a.sock", socket]
    #expect(WireClient.LeaderHint(StoreLeader(node: "n", socket: socket), among: paths) == .listed(socket))
    // The same socket written another way.
    let roundabout = directory.path + "/./leader.sock"
    #expect(WireClient.LeaderHint(StoreLeader(node: "n", socket: roundabout), among: paths) == .listed(socket))
    #expect(
      WireClient.LeaderHint(StoreLeader(node: "n", socket: "/run/other.sock"), among: paths)
        == .elsewhere("/run/other.sock"))
    #expect(WireClient.LeaderHint(nil, among: paths) == .unknown)
  }
}
