import FoundationEssentials

/// The one set of rules by which values become JSON and back, everywhere:
/// the schemas and bindings here, and the daemon's wire, journal and state
/// (`CanonicalJSON` in Wire builds on these; docs/PROTOCOL.md, "State as
/// JSON").
///
/// - dates are ISO 8601 strings (`"2023-11-14T22:13:20Z"`), not Foundation's
///   default of seconds since 2001: a person can write them, and the daemon
///   reads them so;
/// - non-finite numbers are the strings `"Infinity"`, `"-Infinity"` and
///   `"NaN"`: a reducer can compute one, and its state must still encode.
public enum JSONRules {
  /// A `JSONEncoder` following the rules.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return encoder
  }

  /// A `JSONDecoder` following the rules.
  public static func decoder() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .iso8601
    decoder.nonConformingFloatDecodingStrategy = .convertFromString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    return decoder
  }
}
