/// The wire protocol's version, named in the handshake. A peer speaking another
/// version is refused with an error naming both.
public enum ProtocolVersion {
  /// The version this build speaks.
  public static let current = 1
}
