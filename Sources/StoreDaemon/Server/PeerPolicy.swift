import Glibc
import Platform
import Wire

/// Who may use the socket: the daemon's own user, root, and — when the daemon
/// was started with `--allow-group` — the members of that group. Checked on
/// every connection with the kernel's `SO_PEERCRED`, so file permissions are
/// not the only guard.
struct PeerPolicy: Sendable {
  let ownerUID: uid_t
  let allowedGroup: (name: String, gid: gid_t)?

  func allows(_ peer: PeerCredentials) -> Bool {
    if peer.uid == ownerUID || peer.uid == 0 { return true }
    guard let allowedGroup else { return false }
    return peer.gid == allowedGroup.gid || Self.user(peer.uid, isMemberOf: allowedGroup.gid)
  }

  /// The message a refused peer reads before the connection closes.
  func refusal(for peer: PeerCredentials) -> String {
    var text =
      "uid \(peer.uid) may not use this socket: \(DaemonName.current) runs as uid \(ownerUID) and accepts its own user and root"
    if let allowedGroup {
      text += " and members of group '\(allowedGroup.name)'"
    } else {
      text += "; start it with --allow-group GROUP to let a group in"
    }
    return text
  }

  private static func user(_ uid: uid_t, isMemberOf gid: gid_t) -> Bool {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return false }
    var count: Int32 = 64
    var groups = [gid_t](repeating: 0, count: Int(count))
    if getgrouplist(name, entry.pointee.pw_gid, &groups, &count) < 0 {
      groups = [gid_t](repeating: 0, count: Int(count))
      guard getgrouplist(name, entry.pointee.pw_gid, &groups, &count) >= 0 else { return false }
    }
    return groups.prefix(Int(count)).contains(gid)
  }
}
