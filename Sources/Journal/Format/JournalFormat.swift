/// The journal's format versions, written in every segment's header and in
/// every snapshot's header line (docs/DURABILITY.md, "Format versions").
///
/// The bytes around the JSON are the same in both; what differs is the JSON
/// the daemon stores, so a reader knows which shape of enums a record's
/// action and patch, or a snapshot's state, are in.
public enum JournalFormat {
  /// Enums in the shape Foundation's synthesized coding gives them
  /// (`{"idle":{}}`, `{"failed":{"_0":"…"}}`): storedaemon up to 4422e0c.
  public static let foundationEnums: UInt32 = 1
  /// Enums as a person writes them (`"idle"`, `{"failed":"…"}`), the JSON
  /// module's mapping (docs/PROTOCOL.md, "Enumerations as JSON").
  public static let enumsAsWritten: UInt32 = 2
  /// The format this build writes and the newest it reads.
  public static let current = enumsAsWritten
}
