import Glibc
import Synchronization

/// journald's native protocol (systemd's "Native Journal Protocol"): one
/// datagram per entry on `/run/systemd/journal/socket`, each field a line
/// `NAME=value`, or, for a value holding a line feed, `NAME`, a line feed,
/// the value's length as 64-bit little-endian and the value. Fields beside
/// `MESSAGE` and `PRIORITY` let an operator select entries:
/// `journalctl -u storedaemon STORE=shop VERSION=42`.
public enum JournalNative {
  /// Where journald listens.
  public static let defaultSocket = "/run/systemd/journal/socket"

  /// Whether `name` may name a field: capitals, digits and `_`, not
  /// starting with `_` (journald's trusted fields) or a digit, at most 64.
  public static func isFieldName(_ name: String) -> Bool {
    guard let first = name.utf8.first, first != UInt8(ascii: "_"), !(48...57).contains(first), name.utf8.count <= 64
    else { return false }
    return name.utf8.allSatisfy { (65...90).contains($0) || (48...57).contains($0) || $0 == UInt8(ascii: "_") }
  }

  /// The datagram of an entry with `fields`, in order. Fields whose name
  /// journald would not take are left out.
  public static func datagram(_ fields: [(String, String)]) -> [UInt8] {
    var bytes: [UInt8] = []
    for (name, value) in fields where isFieldName(name) {
      bytes += name.utf8
      if value.utf8.contains(10) {
        bytes.append(10)
        var length = UInt64(value.utf8.count).littleEndian
        withUnsafeBytes(of: &length) { bytes += $0 }
        bytes += value.utf8
      } else {
        bytes.append(UInt8(ascii: "="))
        bytes += value.utf8
      }
      bytes.append(10)
    }
    return bytes
  }

  /// Reads a datagram back into its fields, in order; nil if it is not one
  /// (for tests, and for a fake journald).
  public static func fields(of datagram: [UInt8]) -> [(String, String)]? {
    var fields: [(String, String)] = []
    var index = 0
    while index < datagram.count {
      guard let end = datagram[index...].firstIndex(where: { $0 == 10 || $0 == UInt8(ascii: "=") }) else {
        return nil
      }
      let name = String(decoding: datagram[index..<end], as: UTF8.self)
      if datagram[end] == UInt8(ascii: "=") {
        let lineEnd = datagram[(end + 1)...].firstIndex(of: 10) ?? datagram.count
        fields.append((name, String(decoding: datagram[(end + 1)..<lineEnd], as: UTF8.self)))
        index = lineEnd + 1
      } else {
        guard end + 9 <= datagram.count else { return nil }
        var length: UInt64 = 0
        for offset in 0..<8 { length |= UInt64(datagram[end + 1 + offset]) << (8 * UInt64(offset)) }
        let start = end + 9
        guard length <= UInt64(datagram.count - start), start + Int(length) < datagram.count,
          datagram[start + Int(length)] == 10
        else { return nil }
        fields.append((name, String(decoding: datagram[start..<(start + Int(length))], as: UTF8.self)))
        index = start + Int(length) + 1
      }
    }
    return fields
  }

  /// A datagram socket to journald, made on first use; nil if there is none.
  private static let connection = Mutex<Int32?>(nil)

  /// Sends an entry of `fields` to the journal at `path`. Returns false if
  /// it could not (no journal there, or an entry too large for one
  /// datagram), for the caller to write the line elsewhere.
  public static func send(_ fields: [(String, String)], to path: String) -> Bool {
    let bytes = datagram(fields)
    return connection.withLock { descriptor -> Bool in
      if descriptor == nil {
        let made = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard made >= 0 else { return false }
        descriptor = made
      }
      guard let descriptor else { return false }
      var address = sockaddr_un()
      address.sun_family = sa_family_t(AF_UNIX)
      let pathBytes = Array(path.utf8)
      guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
      withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (offset, byte) in pathBytes.enumerated() { raw[offset] = byte }
      }
      let sent = bytes.withUnsafeBytes { buffer in
        withUnsafePointer(to: &address) { pointer in
          pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            sendto(
              descriptor, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL), $0,
              socklen_t(MemoryLayout<sockaddr_un>.size))
          }
        }
      }
      return sent == bytes.count
    }
  }
}
