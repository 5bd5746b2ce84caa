import ComposableCore
import Wire

/// The published JSON document of the state, kept up to date part by part.
///
/// Encoding the whole state after every action costs as much as the state is
/// large: JSONEncoder, then parsing its output back, was four fifths of the
/// work of a counter increment (docs/BENCHMARKS.md). Instead, each stored
/// property of the root state is encoded on its own and kept with the value it
/// was encoded from. The next encoding re-encodes only the properties whose
/// value changed — Equatable, where storage an action did not touch compares
/// by identity at once — and assembles the document from the kept parts. An
/// unchanged part is the very same `JSONValue` as before, so `JSONPatch.diff`
/// passes over it at once too.
///
/// The document must be exactly what encoding the whole state gives. The
/// first encoding checks that (synthesized Codable writes one key per stored
/// property, named after it, and leaves nil optionals out); a state type that
/// encodes otherwise is always encoded whole. Equal parts must encode the
/// same, which synthesized Equatable and Codable agree on (except that 0.0
/// and -0.0 are equal).
struct StateDocumentEncoder<State: Encodable> {
  private struct Part {
    let key: String
    /// Whether a value equals the one the part was encoded from. A closure
    /// made once per encoding, which casts to the concrete type: asking a
    /// value for its Equatable conformance on every comparison cost more than
    /// the comparison (a runtime conformance lookup).
    let isEqual: (Any) -> Bool
    /// Nil for an optional that is nil: synthesized Codable leaves it out.
    let json: JSONValue?
  }

  private var parts: [Part] = []
  /// Whether part-by-part encoding gives what whole encoding does; nil until
  /// the first encoding checked.
  private(set) var isPartwise: Bool?

  /// The JSON document of `state`.
  ///
  /// - Throws: the encoder's `EncodingError`.
  mutating func document(of state: State) throws -> JSONValue {
    guard isPartwise != false else { return try CanonicalJSON.value(of: state) }
    var members: [String: JSONValue] = [:]
    var next: [Part] = []
    for (index, child) in Mirror(reflecting: state).children.enumerated() {
      guard let key = child.label else { return try encodeWhole(state) }
      let part: Part
      if index < parts.count, parts[index].key == key, parts[index].isEqual(child.value) {
        part = parts[index]
      } else {
        guard let value = child.value as? any Equatable & Encodable else { return try encodeWhole(state) }
        part = try Self.part(key, value)
      }
      if let json = part.json { members[key] = json }
      next.append(part)
    }
    let document = JSONValue.object(members)
    if isPartwise == nil {
      let whole = try CanonicalJSON.value(of: state)
      guard whole == document else {
        isPartwise = false
        return whole
      }
      isPartwise = true
    }
    parts = next
    return document
  }

  private mutating func encodeWhole(_ state: State) throws -> JSONValue {
    isPartwise = false
    parts = []
    return try CanonicalJSON.value(of: state)
  }

  private static func part<T: Equatable & Encodable>(_ key: String, _ value: T) throws -> Part {
    let mirror = Mirror(reflecting: value)
    let isNil = mirror.displayStyle == .optional && mirror.children.isEmpty
    return Part(
      key: key, isEqual: { ($0 as? T).map { $0 == value } ?? false },
      json: isNil ? nil : try CanonicalJSON.value(of: value))
  }
}
