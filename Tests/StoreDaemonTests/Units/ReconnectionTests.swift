import Glibc
import Platform
import Testing
import Wire

@testable import tcactl

/// What `watch` and `log --follow` give up on when they connect again, and
/// what they try again (docs/CLI.md, "watch").
@Suite struct ReconnectionTests {
  static let path = "/run/storedaemon/storedaemon.sock"

  @Test func refusalsThatNeedAPersonEndTheStream() {
    for code: WireErrorCode in [.forbidden, .unsupportedVersion, .handshake] {
      #expect(Reconnection.isPermanent(.rejected(code: code, message: "no")), "\(code)")
    }
    for code in [EACCES, EPERM] {
      let failure = SocketError("connect", path: Self.path, errno: code)
      #expect(Reconnection.isPermanent(.unreachable(daemon: "storedaemon", path: Self.path, failure)))
    }
    let impostor = ClientError.impostor(
      daemon: "storedaemon", path: Self.path, peer: PeerCredentials(pid: 7, uid: 1000, gid: 1000),
      expected: .standard)
    #expect(Reconnection.isPermanent(impostor))
  }

  @Test func whatADaemonThatRestartsOrFailsOverGivesIsTriedAgain() {
    let gone = SocketError("connect", path: Self.path, errno: ECONNREFUSED)
    let missing = SocketError("connect", path: Self.path, errno: ENOENT)
    let transient: [ClientError] = [
      .unreachable(daemon: "storedaemon", path: Self.path, gone),
      .unreachable(daemon: "storedaemon", path: Self.path, missing),
      .rejected(code: .tooManyClients, message: "try again later"),
      .notLeader(message: "a standby", leader: nil),
      .closed(reason: "stopping"),
      .timedOut("no welcome"),
    ]
    for error in transient { #expect(!Reconnection.isPermanent(error), "\(error)") }
  }

  @Test func ofSeveralSocketsOnlyAllRefusingForGoodIsPermanent() {
    let forbidden = SocketFailure(path: "/a", error: .rejected(code: .forbidden, message: "no"))
    let down = SocketFailure(
      path: "/b",
      error: .unreachable(daemon: "storedaemon", path: "/b", SocketError("connect", path: "/b", errno: ECONNREFUSED)))
    #expect(Reconnection.isPermanent(.allSocketsFailed(summary: "", [forbidden, forbidden])))
    #expect(!Reconnection.isPermanent(.allSocketsFailed(summary: "", [forbidden, down])))
    #expect(!Reconnection.isPermanent(.allSocketsFailed(summary: "", [])))
  }
}
