/// The rules for an epoch (lineage id) string, which segment headers and
/// snapshots carry: 1 to 255 bytes of UTF-8 without control characters, so it
/// fits the header's length field and prints cleanly in messages.
public enum Epoch {
  static let maximumBytes = 255

  /// A new lineage's name: 16 hex digits, zero-padded, so that every
  /// epoch has the same length (a `welcome` frame's length does not vary
  /// with it).
  public static func random() -> String {
    let digits = String(UInt64.random(in: 1...UInt64.max), radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }

  /// Why `epoch` is not acceptable, or `nil` if it is.
  static func problem(_ epoch: String) -> String? {
    let count = epoch.utf8.count
    if count == 0 { return "an epoch must not be empty" }
    if count > maximumBytes { return "an epoch has at most \(maximumBytes) bytes of UTF-8, this one has \(count)" }
    if epoch.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
      return "an epoch must not contain control characters"
    }
    return nil
  }
}
