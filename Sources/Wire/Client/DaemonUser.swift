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

  /// The client's own user, root, and the seed apps' system service user
  /// (`storedaemon`, docs/OPERATIONS.md) where it exists: the users a
  /// daemon this client should talk to runs as, unless told otherwise.
  public static var standard: DaemonUser { standard(serviceUser: serviceUser) }

  /// The client's own user, root, and `serviceUser` where it exists: a
  /// hosted app's system service runs as a user named after the app
  /// (docs/HOSTING.md).
  public static func standard(serviceUser: String) -> DaemonUser {
    var uids: [uid_t] = [getuid(), 0]
    if let service = uid(named: serviceUser) { uids.append(service) }
    var unique: [uid_t] = []
    for uid in uids where !unique.contains(uid) { unique.append(uid) }
    return DaemonUser(uids: Set(unique), description: unique.map(Self.name).joined(separator: ", ", last: " or "))
  }

  /// The seed apps' system service user, created by its sysusers file.
  public static let serviceUser = "storedaemon"

  /// Exactly the user `user`: a user name, or a uid (which needs no name).
  /// Nil when `user` is neither.
  public init?(user: String) {
    guard let uid = uid_t(user) ?? Self.uid(named: user) else { return nil }
    self.init(uids: [uid], description: Self.name(uid))
  }

  private init(uids: Set<uid_t>, description: String) {
    self.uids = uids
    self.description = description
  }

  /// `ada (uid 1000)`, or `uid 1000` for a uid with no name.
  public static func name(_ uid: uid_t) -> String {
    let name = withPasswordEntry(lookUp: { getpwuid_r(uid, &$0, $1, $2, &$3) }, read: { String(cString: $0.pw_name) })
    return name.map { "\($0) (uid \(uid))" } ?? "uid \(uid)"
  }

  /// The uid of the user called `name`, if there is one.
  static func uid(named name: String) -> uid_t? {
    withPasswordEntry(lookUp: { getpwnam_r(name, &$0, $1, $2, &$3) }, read: { $0.pw_uid })
  }

  /// Looks an entry up with one of the reentrant calls (`getpwnam_r`,
  /// `getpwuid_r`: clients connect from several threads at once) and reads
  /// it with `read`; nil when there is none.
  private static func withPasswordEntry<T>(
    lookUp: (inout passwd, UnsafeMutablePointer<CChar>, Int, inout UnsafeMutablePointer<passwd>?) -> Int32,
    read: (passwd) -> T
  ) -> T? {
    var entry = passwd()
    var found: UnsafeMutablePointer<passwd>?
    var buffer = [CChar](repeating: 0, count: 16 * 1024)
    return buffer.withUnsafeMutableBufferPointer { buffer in
      // invariant: a buffer of 16 KiB has a base address
      guard lookUp(&entry, buffer.baseAddress!, buffer.count, &found) == 0, found != nil else { return nil }
      return read(entry)
    }
  }
}

extension Array where Element == String {
  /// `a, b or c`.
  fileprivate func joined(separator: String, last: String) -> String {
    count <= 1 ? joined() : dropLast().joined(separator: separator) + last + self[count - 1]
  }
}
