import Foundation

/// Foundation's JSON coders set to the rules the JSON module's own follow
/// (ISO 8601 dates, non-finite numbers as the strings `"Infinity"`,
/// `"-Infinity"` and `"NaN"`, sorted keys): the reference the tests compare
/// `JSONValueEncoder` and `JSONValueDecoder` with. The product itself uses
/// no Foundation JSON.
public enum FoundationJSON {
  /// A `JSONEncoder` following the rules, writing sorted keys and `/` unescaped.
  public static func encoder() -> JSONEncoder {
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .iso8601
    encoder.nonConformingFloatEncodingStrategy = .convertToString(
      positiveInfinity: "Infinity", negativeInfinity: "-Infinity", nan: "NaN")
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
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
