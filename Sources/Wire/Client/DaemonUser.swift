import Glibc

/// The users a client accepts as the daemon on the other end of its socket.
///
/// A socket path is only as safe as the directories above it: a user who can
/// rename one of them can serve a socket of their own at the same path. The
/// kernel says who really listens (`SO_PEERCRED`), so ``WireClient`` checks
/// it before it sends anything, its name included.
public struct DaemonUser: Sendable, Hashable, CustomStringConvertible {
  /// The uids accepted.
  public let uids: Set<uid_t>
  /// Who they are, for messages: `root (uid 0)`.
  public let description: String

  /// The client's own user, root, and the system service's user
  /// (`storedaemon`, docs/OPERATIONS.md) where it exists: the users a
  /// daemon this client should talk to runs as, unless told otherwise.
  public static var standard: DaemonUser {
    var uids: [uid_t] = [getuid(), 0]
    if let service = getpwnam(serviceUser) { uids.append(service.pointee.pw_uid) }
    var unique: [uid_t] = []
    for uid in uids where !unique.contains(uid) { unique.append(uid) }
    return DaemonUser(uids: Set(unique), description: unique.map(Self.name).joined(separator: ", ", last: " or "))
  }

  /// The system service's user, created by its sysusers file.
  public static let serviceUser = "storedaemon"

  /// Exactly the user `user`: a user name, or a uid (which needs no name).
  /// Nil when `user` is neither.
  public init?(user: String) {
    if let uid = uid_t(user) {
      self.init(uids: [uid], description: Self.name(uid))
    } else if let entry = getpwnam(user) {
      self.init(uids: [entry.pointee.pw_uid], description: Self.name(entry.pointee.pw_uid))
    } else {
      return nil
    }
  }

  private init(uids: Set<uid_t>, description: String) {
    self.uids = uids
    self.description = description
  }

  /// `ada (uid 1000)`, or `uid 1000` for a uid with no name.
  public static func name(_ uid: uid_t) -> String {
    guard let entry = getpwuid(uid), let name = entry.pointee.pw_name else { return "uid \(uid)" }
    return "\(String(cString: name)) (uid \(uid))"
  }
}

extension Array where Element == String {
  /// `a, b or c`.
  fileprivate func joined(separator: String, last: String) -> String {
    count <= 1 ? joined() : dropLast().joined(separator: separator) + last + self[count - 1]
  }
}
