import FoundationEssentials
import Synchronization

/// Encodes an `Encodable` value straight into a ``JSONValue``, as
/// Foundation's `JSONEncoder` (ISO 8601 dates, non-finite numbers as
/// strings) followed by ``JSONParser`` would, but for dates, which keep
/// their milliseconds: the one encoder of the product, whose bytes are
/// ``CanonicalJSON``'s.
///
/// The daemon turns every action it reduces and every changed part of the
/// state into a `JSONValue`; this encoder builds the value directly, with
/// these rules:
///
/// - dates as ``JSONDate`` writes them, RFC 3339 at whole milliseconds
///   (`2026-12-02T17:27:37.123Z`), base64 `Data`, `URL` as its absolute
///   string, `Decimal` as a number;
/// - a floating-point number is what its shortest description reads back
///   as, `JSONEncoder` dropping a trailing `.0`: `2.0` becomes the integer
///   `2`, `0.1` stays a double, and a `Float` is read back as a `Double` from
///   its own description (`0.1` as `Float` is the `Double` `0.1`);
/// - `Infinity`, `-Infinity` and `NaN` are strings;
/// - an unsigned integer beyond `Int.max` is a double, as the parser reads it;
/// - a value that encodes nothing is an empty object, and at the top level an
///   `EncodingError`;
/// - unlike `JSONEncoder`, an optional member without a value is `null`
///   rather than left out, unless the caller asks for ``NilMembers/omitted``;
/// - unlike `JSONEncoder`, an enum's synthesized coding is written as a
///   person would write it (``EnumCaseJSON``): `"idle"` rather than
///   `{"idle":{}}`, `{"failed":"…"}` rather than `{"failed":{"_0":"…"}}`.
public enum JSONValueEncoder {
  /// How an optional member without a value is written.
  public enum NilMembers: Sendable {
    /// As `null`: a state's or an action's members are the same whatever
    /// they hold, so a client can read `/dice/destination` as `null` and
    /// knows the member exists (docs/PROTOCOL.md, "State as JSON").
    case null
    /// Left out, as `JSONEncoder` does: for documents and request bodies
    /// read by others, and for the values a binding or a command line holds.
    case omitted
  }

  /// The JSON value `value` encodes to.
  ///
  /// - Throws: `EncodingError` when the value encodes nothing at all, or
  ///   whatever its own `encode(to:)` throws.
  public static func encode<T: Encodable>(_ value: T, nilMembers: NilMembers = .null) throws -> JSONValue {
    guard let json = try box(value, path: .root, omitsNil: nilMembers == .omitted) else {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values.")
      )
    }
    return json
  }

  /// The JSON value `value` encodes to, reusing from `cache` the JSON of
  /// each top-level member whose value equals the one it was encoded from
  /// last time; the cache then holds this value's members.
  ///
  /// The result is what ``encode(_:)`` gives, provided equal values encode
  /// the same (synthesized `Equatable` and `Encodable` agree); members whose
  /// type is not `Equatable` are encoded every time. An unchanged member is
  /// the very same `JSONValue` as before, so comparing the two documents
  /// passes over it at once.
  public static func encode<T: Encodable>(_ value: T, reusing cache: JSONMemberCache) throws -> JSONValue {
    let encoder = ValueEncoder(path: .root, memberCache: cache, omitsNil: false)
    cache.begin()
    try value.encode(to: encoder)
    guard let json = encoder.finish() else {
      throw EncodingError.invalidValue(
        value, EncodingError.Context(codingPath: [], debugDescription: "Top-level \(T.self) did not encode any values.")
      )
    }
    cache.commit()
    return try withView(of: value, json, path: .root)
  }

  /// The JSON of `value`'s view (``PublishesView``), the member `view`
  /// ``withView(of:_:)`` adds; nil when `value` publishes none. For a
  /// document assembled from parts, which puts it in place itself.
  public static func view<T: Encodable>(of value: T) throws -> JSONValue? {
    guard Traits.of(T.self).publishesView, let viewed = value as? any PublishesView else { return nil }
    return try viewJSON(of: viewed, path: .root)
  }

  private static func viewJSON(of value: some PublishesView, path: CodingPath) throws -> JSONValue {
    try box(value.view, path: path.child(IndexKey(stringValue: PublishesViewKey.name))) ?? .object([:])
  }

  /// Whether values of `type` publish a view (``PublishesView``), which
  /// ``withView(of:_:)`` adds: asked first, so that a caller holding a
  /// large value where it is need not pass it for nothing.
  public static func publishesView<T: Encodable>(_ type: T.Type) -> Bool {
    Traits.of(type).publishesView
  }

  /// The JSON of `value` as the member `key` of an object holds it (a
  /// `Date` as its ``JSONDate`` string, an object for a value that encodes
  /// nothing), reusing `cache` as ``JSONMemberCache`` does for a member's
  /// own value: what `value` holds is compared with what it held last time,
  /// and only what changed is encoded. For ``StateParts`` states, whose
  /// parts the daemon compares and encodes itself.
  public static func encodeMember<T: Encodable>(_ value: T, key: String, reusing cache: JSONMemberCache) throws
    -> JSONValue
  {
    cache.begin()
    let json = try box(value, path: CodingPath.root.child(IndexKey(stringValue: key)), cache: cache) ?? .object([:])
    cache.commit()
    return json
  }

  /// `value` as JSON at `path`: the primitives and Foundation's special
  /// types directly, anything else through its `encode(to:)`; nil when it
  /// encoded nothing. With `cache`, what `value` holds is compared with what
  /// it held last time, and only what changed is encoded.
  fileprivate static func box<T: Encodable>(
    _ value: T, path: CodingPath, cache: JSONMemberCache? = nil, omitsNil: Bool = false
  ) throws -> JSONValue? {
    if let json = try scalar(value, path: path) { return json }
    let traits = Traits.of(T.self)
    if let cache, traits.isElementwise, let array = value as? any ElementwiseEncodable {
      return try array.encodeElements(path: path, cache: cache)
    }
    let encoder = ValueEncoder(path: path, memberCache: cache, omitsNil: omitsNil)
    try value.encode(to: encoder)
    guard let json = encoder.finish() else { return nil }
    return traits.publishesView ? try withView(of: value, json, path: path) : json
  }

  /// `json` with `value`'s view added, when `value` publishes one.
  private static func withView<T: Encodable>(of value: T, _ json: JSONValue, path: CodingPath) throws -> JSONValue {
    guard Traits.of(T.self).publishesView, let viewed = value as? any PublishesView else { return json }
    return try adding(viewed, to: json, path: path)
  }

  /// `json`, the object `value` encoded to, with its ``PublishesView/view``
  /// as the member `view`.
  private static func adding(_ value: some PublishesView, to json: JSONValue, path: CodingPath) throws -> JSONValue {
    guard case .object(var members) = json else { return json }
    members[PublishesViewKey.name] = try viewJSON(of: value, path: path)
    return .object(members)
  }

  /// The JSON of `value` when it is one of the types the encoder writes
  /// itself, without an `Encoder`: a string, number or boolean, Foundation's
  /// `Date`, `Data`, `URL` and `Decimal`, or a ``JSONValue``; nil for any
  /// other type. A member of a ``StateParts`` state that is one of these is
  /// encoded this way, without a ``JSONMemberCache``.
  ///
  /// - Throws: `EncodingError` for a `Date` or `Decimal` JSON cannot hold,
  ///   at `key`.
  public static func scalar<T: Encodable>(_ value: T, key: String) throws -> JSONValue? {
    try scalar(value, path: CodingPath.root.child(IndexKey(stringValue: key)))
  }

  private static func scalar<T: Encodable>(_ value: T, path: @autoclosure () -> CodingPath) throws -> JSONValue? {
    // Type identity first: one comparison per type instead of a failed
    // dynamic cast, and no match for a subclass JSONEncoder would not treat
    // specially either. The cast after it succeeds, and costs what `as!`
    // would, without a trap.
    if T.self == String.self, let string = value as? String { return .string(string) }
    if T.self == Int.self, let int = value as? Int { return .int(int) }
    if T.self == Bool.self, let bool = value as? Bool { return .bool(bool) }
    if T.self == Double.self, let double = value as? Double { return number(double) }
    if T.self == Date.self, let date = value as? Date { return try string(of: date, path: path()) }
    if T.self == Data.self, let data = value as? Data { return .string(data.base64EncodedString()) }
    if T.self == URL.self, let url = value as? URL { return .string(url.absoluteString) }
    if T.self == Decimal.self, let decimal = value as? Decimal {
      return try number(text: decimal.description, path: path())
    }
    if T.self == JSONValue.self, let json = value as? JSONValue { return plain(json) }
    return nil
  }

  /// What the encoder needs to know of a type beyond its `encode(to:)`,
  /// found once per type and kept: asked for every value encoded through
  /// its own `encode(to:)`, and the runtime's own conformance check scans
  /// every conformance in the program when its cache misses, which it did
  /// for some types on every call, thousands of instructions each time.
  private struct Traits {
    /// Whether values encode element by element (an array, a chunked
    /// array), which a cache compares one by one.
    let isElementwise: Bool
    /// Whether values publish a view (``PublishesView``).
    let publishesView: Bool

    static func of<T>(_ type: T.Type) -> Traits {
      let id = ObjectIdentifier(type)
      if let known = known.withLock({ $0[id] }) { return known }
      let traits = Traits(
        isElementwise: type is any ElementwiseEncodable.Type, publishesView: type is any PublishesView.Type)
      known.withLock { $0[id] = traits }
      return traits
    }

    private static let known = Mutex<[ObjectIdentifier: Traits]>([:])
  }

  /// `value` as its own `encode(to:)` writes it here, without a container
  /// per value: an action carrying a large JSON value (a binding's) is
  /// encoded once per send, on the store loop. Doubles become what
  /// `number(_:)` makes of them; the rest is unchanged.
  private static func plain(_ value: JSONValue) -> JSONValue {
    switch value {
    case .double(let number): return Self.number(number)
    case .array(let elements): return .array(elements.map(plain))
    case .object(let members): return .object(JSONObject(members.map { ($0.key, plain($0.value)) }))
    default: return value
    }
  }

  /// `value` as `JSONEncoder` writes it and ``JSONParser`` reads it back,
  /// without writing it out where the answer is known: below 2^53 a whole
  /// double's description is its digits and `.0`, which JSONEncoder drops
  /// and the parser reads as an integer, and any other finite double's
  /// shortest description reads back as the double itself. Larger whole
  /// numbers (`1e+16`), infinities and NaN go the long way.
  fileprivate static func number(_ value: Double) -> JSONValue {
    if value.magnitude < 0x1p53 {
      return value == value.rounded(.towardZero) ? .int(Int(value)) : .double(value)
    }
    return number(described: value)
  }

  /// A `Float` as `JSONEncoder` writes it: read back from its own
  /// description, which is not the `Double` it converts to (`0.1`).
  fileprivate static func number(_ value: Float) -> JSONValue { number(described: value) }

  /// `value` as `JSONEncoder` writes it and ``JSONParser`` reads it back:
  /// its shortest description, without a trailing `.0`, parsed.
  private static func number<F: BinaryFloatingPoint & LosslessStringConvertible>(described value: F) -> JSONValue {
    guard value.isFinite else { return .string(value.isNaN ? "NaN" : value < 0 ? "-Infinity" : "Infinity") }
    var text = value.description
    if text.hasSuffix(".0") { text.removeLast(2) }
    // A finite value's description always reads back.
    return (try? number(text: text, path: .root)) ?? .double(Double(value))
  }

  /// A number written as `text`, read as ``JSONParser`` reads it: an
  /// integer that fits `Int` without fraction or exponent, else a `Double`.
  /// `date` as ``JSONDate`` writes it: `2026-12-02T17:27:37.123Z`.
  ///
  /// - Throws: `EncodingError` for a date outside years 0000 through 9999.
  fileprivate static func string(of date: Date, path: CodingPath) throws -> JSONValue {
    do {
      return .string(try JSONDate.string(of: date))
    } catch {
      // The seconds, not the `Date`: describing a `Date` that is not
      // finite stops the program in Foundation.
      throw EncodingError.invalidValue(
        date.timeIntervalSince1970, EncodingError.Context(codingPath: path.keys, debugDescription: error.description))
    }
  }

  fileprivate static func number(text: String, path: CodingPath) throws -> JSONValue {
    if let integer = Int(text) { return .int(integer) }
    guard let double = Double(text), double.isFinite else {
      throw EncodingError.invalidValue(
        text, EncodingError.Context(codingPath: path.keys, debugDescription: "'\(text)' is not a finite JSON number."))
    }
    return .double(double)
  }

  fileprivate static func number(_ value: UInt64) -> JSONValue {
    value <= UInt64(Int.max) ? .int(Int(value)) : .double(Double(value))
  }
}

/// The key of an element of an unkeyed container, and of `super`.
private struct IndexKey: CodingKey {
  let stringValue: String
  let intValue: Int?
  init(stringValue: String) { (self.stringValue, intValue) = (stringValue, nil) }
  init(intValue: Int) { (stringValue, self.intValue) = ("Index \(intValue)", intValue) }
  static let superKey = IndexKey(stringValue: "super")
}

/// A container or encoder whose value is complete only once the value that
/// asked for it has finished encoding.
private enum Pending {
  case object(ObjectBuilder)
  case array(ArrayBuilder)
  case encoder(ValueEncoder)

  func finish() -> JSONValue {
    switch self {
    case .object(let object): object.finish()
    case .array(let array): array.finish()
    case .encoder(let encoder): encoder.finish() ?? .object([:])
    }
  }
}

private final class ObjectBuilder {
  /// The members in the order they were encoded. A key encoded again is
  /// given again, and the last value given wins (``JSONObject/init(_:)``),
  /// so that encoding costs one sort at the end rather than an ordered
  /// insertion per member.
  // Unchecked: a builder belongs to one encoding on one thread, and no
  // access to these two lists is held across a call that could reach the
  // other or itself (each is a read, an append or a removal that returns
  // before anything else runs), so no two accesses ever overlap; the runtime
  // check cost as much as the append.
  @exclusivity(unchecked) var members: [JSONObject.Element] = []
  /// Nested containers and super encoders, by key, none of them among
  /// ``members``. A list, not a dictionary: an enum's case is one nested
  /// container, most structs have none, and a dictionary cost more to make
  /// and hash into than the list costs to search.
  @exclusivity(unchecked) private(set) var pending: [(key: String, value: Pending)] = []
  /// The keys of the container this object is, when it was asked for as a
  /// nested keyed container: an enum case's values (``EnumCaseJSON``).
  var keyType: (any CodingKey.Type)?

  init(capacity: Int = 0) {
    if capacity > 0 { members.reserveCapacity(capacity) }
  }

  /// The nested container or super encoder standing for member `key`.
  func pending(for key: String) -> Pending? {
    pending.first { $0.key == key }?.value
  }

  /// Sets `key`'s nested container or super encoder, which from now on
  /// stands for the member.
  func setPending(_ value: Pending, for key: String) {
    removePending(key)
    pending.append((key, value))
  }

  func removePending(_ key: String) {
    if !pending.isEmpty { pending.removeAll { $0.key == key } }
  }

  /// Takes out member `key`: the value a nested container goes on filling,
  /// or one a super encoder replaces.
  func remove(_ key: String) -> JSONValue? {
    guard !members.isEmpty else { return nil }
    var removed: JSONValue?
    members.removeAll { member in
      guard JSONObject.order(member.key, key) == 0 else { return false }
      removed = member.value
      return true
    }
    return removed
  }

  /// This object as the whole value of an enum, written as ``EnumCaseJSON``
  /// says: nil, and nothing finished, unless it holds nothing but one nested
  /// keyed container, which is how synthesized enum coding writes a case.
  func finishAsEnumCase() -> JSONValue? {
    guard members.isEmpty, pending.count == 1, case .object(let values) = pending[0].value,
      values.pending.isEmpty, let keyType = values.keyType, case .object(let payload) = values.finish()
    else { return nil }
    return EnumCaseJSON.json(case: pending[0].key, values: payload, keyType: keyType)
  }

  func finish() -> JSONValue {
    for (key, pending) in pending { members.append((key, pending.finish())) }
    // Taken out, so that they are sorted in place.
    var taken: [JSONObject.Element] = []
    swap(&taken, &members)
    return .object(JSONObject(taken))
  }
}

private final class ArrayBuilder {
  var elements: JSONArray = []
  /// Nested containers and super encoders, by the index they hold.
  var pending: [(index: Int, pending: Pending)] = []

  /// Holds the next index for `pending`.
  func append(_ pending: Pending) {
    self.pending.append((elements.count, pending))
    elements.append(.null)
  }

  func finish() -> JSONValue {
    for (index, pending) in pending { elements[index] = pending.finish() }
    return .array(elements)
  }
}

/// The `Encoder` for one value.
private final class ValueEncoder: Encoder {
  enum Storage {
    case none
    case value(JSONValue)
    case object(ObjectBuilder)
    case array(ArrayBuilder)
  }

  let path: CodingPath
  /// Only for the root value's own keyed container.
  let memberCache: JSONMemberCache?
  /// Whether optional members without a value are left out (``JSONValueEncoder/NilMembers``).
  let omitsNil: Bool
  var storage = Storage.none
  var codingPath: [any CodingKey] { path.keys }
  var userInfo: [CodingUserInfoKey: Any] { [:] }

  init(path: CodingPath, memberCache: JSONMemberCache? = nil, omitsNil: Bool) {
    self.path = path
    self.memberCache = memberCache
    self.omitsNil = omitsNil
  }

  /// What was encoded; nil when nothing was.
  func finish() -> JSONValue? {
    switch storage {
    case .none: nil
    case .value(let value): value
    case .object(let object): object.finishAsEnumCase() ?? object.finish()
    case .array(let array): array.finish()
    }
  }

  func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
    let object: ObjectBuilder
    switch storage {
    case .object(let existing):
      object = existing
    case .none:
      // The root of a cached encoding has as many members as last time
      // (the cache counts those it keeps); room for a few saves the
      // reallocations of growing one member at a time.
      object = ObjectBuilder(capacity: max(memberCache?.count ?? 0, 4))
      storage = .object(object)
    case .value, .array:
      // invariant: only an Encodable's own encode(to:) that asks one encoder for two kinds of container reaches this
      // (code, as with JSONEncoder, whose protocol gives this method no way to throw); input never does
      preconditionFailure("Attempt to push new keyed encoding container when already previously encoded at this path.")
    }
    return KeyedEncodingContainer(
      KeyedContainer<Key>(object: object, path: path, omitsNil: omitsNil, memberCache: memberCache))
  }

  func unkeyedContainer() -> any UnkeyedEncodingContainer {
    let array: ArrayBuilder
    switch storage {
    case .array(let existing):
      array = existing
    case .none:
      array = ArrayBuilder()
      storage = .array(array)
    case .value, .object:
      // invariant: only an Encodable's own encode(to:) that asks one encoder for two kinds of container reaches this
      // (code, as with JSONEncoder, whose protocol gives this method no way to throw); input never does
      preconditionFailure(
        "Attempt to push new unkeyed encoding container when already previously encoded at this path.")
    }
    return UnkeyedContainer(array: array, path: path, omitsNil: omitsNil)
  }

  func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
  let object: ObjectBuilder
  let path: CodingPath
  let omitsNil: Bool
  var memberCache: JSONMemberCache? = nil
  var codingPath: [any CodingKey] { path.keys }

  /// Sets `key`, replacing a nested container or super encoder given for
  /// it earlier: the last write wins, as in JSONEncoder.
  private func set(_ value: JSONValue, _ key: Key) {
    set(value, named: key.stringValue)
  }

  private func set(_ value: JSONValue, named name: String) {
    object.removePending(name)
    object.members.append((name, value))
  }

  mutating func encodeNil(forKey key: Key) { set(.null, key) }
  mutating func encode(_ value: Bool, forKey key: Key) { set(.bool(value), key) }
  mutating func encode(_ value: String, forKey key: Key) { set(.string(value), key) }
  mutating func encode(_ value: Double, forKey key: Key) { set(JSONValueEncoder.number(value), key) }
  mutating func encode(_ value: Float, forKey key: Key) { set(JSONValueEncoder.number(value), key) }
  mutating func encode(_ value: Int, forKey key: Key) { set(.int(value), key) }
  mutating func encode(_ value: Int8, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: Int16, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: Int32, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: Int64, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: UInt, forKey key: Key) { set(JSONValueEncoder.number(UInt64(value)), key) }
  mutating func encode(_ value: UInt8, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: UInt16, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: UInt32, forKey key: Key) { set(.int(Int(value)), key) }
  mutating func encode(_ value: UInt64, forKey key: Key) { set(JSONValueEncoder.number(value), key) }

  /// Sets `key` to `value`, or for `nil` to `null` or nothing
  /// (``JSONValueEncoder/NilMembers``).
  private func setIfPresent(_ value: JSONValue?, _ key: Key) {
    if let value {
      set(value, key)
    } else if !omitsNil {
      set(.null, key)
    }
  }

  mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) { setIfPresent(value.map(JSONValue.bool), key) }
  mutating func encodeIfPresent(_ value: String?, forKey key: Key) { setIfPresent(value.map(JSONValue.string), key) }
  mutating func encodeIfPresent(_ value: Double?, forKey key: Key) {
    setIfPresent(value.map { JSONValueEncoder.number($0) }, key)
  }
  mutating func encodeIfPresent(_ value: Float?, forKey key: Key) {
    setIfPresent(value.map { JSONValueEncoder.number($0) }, key)
  }
  mutating func encodeIfPresent(_ value: Int?, forKey key: Key) { setIfPresent(value.map(JSONValue.int), key) }
  mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) {
    setIfPresent(value.map { JSONValueEncoder.number(UInt64($0)) }, key)
  }
  mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) { setIfPresent(value.map { .int(Int($0)) }, key) }
  mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) {
    setIfPresent(value.map { JSONValueEncoder.number($0) }, key)
  }
  mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
    guard let value else { return setIfPresent(nil, key) }
    try encode(value, forKey: key)
  }

  mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
    guard let memberCache else {
      set(try JSONValueEncoder.box(value, path: path.child(key), omitsNil: omitsNil) ?? .object([:]), key)
      return
    }
    // The member's path is made only if it is encoded: most are reused.
    let name = key.stringValue
    set(
      try memberCache.member(value, forKey: name) { [path] children in
        try JSONValueEncoder.box(value, path: path.child(key), cache: children) ?? .object([:])
      }, named: name)
  }

  mutating func nestedContainer<NestedKey: CodingKey>(
    keyedBy keyType: NestedKey.Type, forKey key: Key
  ) -> KeyedEncodingContainer<NestedKey> {
    let nested: ObjectBuilder
    let name = key.stringValue
    if case .object(let existing) = object.pending(for: name) {
      nested = existing
    } else {
      // A container asked for where an object was already encoded goes on
      // filling that object.
      nested = ObjectBuilder()
      if case .object(let members) = object.remove(name) { nested.members = Array(members) }
      object.setPending(.object(nested), for: name)
    }
    nested.keyType = keyType
    return KeyedEncodingContainer(
      KeyedContainer<NestedKey>(object: nested, path: .child(path, key), omitsNil: omitsNil))
  }

  mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
    let nested: ArrayBuilder
    let name = key.stringValue
    if case .array(let existing) = object.pending(for: name) {
      nested = existing
    } else {
      nested = ArrayBuilder()
      if case .array(let elements) = object.remove(name) { nested.elements = elements }
      object.setPending(.array(nested), for: name)
    }
    return UnkeyedContainer(array: nested, path: .child(path, key), omitsNil: omitsNil)
  }

  mutating func superEncoder() -> any Encoder {
    superEncoder(named: IndexKey.superKey.stringValue, key: IndexKey.superKey)
  }

  mutating func superEncoder(forKey key: Key) -> any Encoder {
    superEncoder(named: key.stringValue, key: key)
  }

  private func superEncoder(named name: String, key: any CodingKey) -> any Encoder {
    let encoder = ValueEncoder(path: .child(path, key), omitsNil: omitsNil)
    _ = object.remove(name)
    object.setPending(.encoder(encoder), for: name)
    return encoder
  }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
  let array: ArrayBuilder
  let path: CodingPath
  let omitsNil: Bool
  var codingPath: [any CodingKey] { path.keys }
  var count: Int { array.elements.count }

  private func append(_ value: JSONValue) { array.elements.append(value) }
  private var nextPath: CodingPath { .child(path, IndexKey(intValue: count)) }

  mutating func encodeNil() { append(.null) }
  mutating func encode(_ value: Bool) { append(.bool(value)) }
  mutating func encode(_ value: String) { append(.string(value)) }
  mutating func encode(_ value: Double) { append(JSONValueEncoder.number(value)) }
  mutating func encode(_ value: Float) { append(JSONValueEncoder.number(value)) }
  mutating func encode(_ value: Int) { append(.int(value)) }
  mutating func encode(_ value: Int8) { append(.int(Int(value))) }
  mutating func encode(_ value: Int16) { append(.int(Int(value))) }
  mutating func encode(_ value: Int32) { append(.int(Int(value))) }
  mutating func encode(_ value: Int64) { append(.int(Int(value))) }
  mutating func encode(_ value: UInt) { append(JSONValueEncoder.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) { append(.int(Int(value))) }
  mutating func encode(_ value: UInt16) { append(.int(Int(value))) }
  mutating func encode(_ value: UInt32) { append(.int(Int(value))) }
  mutating func encode(_ value: UInt64) { append(JSONValueEncoder.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    append(try JSONValueEncoder.box(value, path: nextPath, omitsNil: omitsNil) ?? .object([:]))
  }

  mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<
    NestedKey
  > {
    let nested = ObjectBuilder()
    let path = nextPath
    array.append(.object(nested))
    return KeyedEncodingContainer(KeyedContainer<NestedKey>(object: nested, path: path, omitsNil: omitsNil))
  }

  mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
    let nested = ArrayBuilder()
    let path = nextPath
    array.append(.array(nested))
    return UnkeyedContainer(array: nested, path: path, omitsNil: omitsNil)
  }

  mutating func superEncoder() -> any Encoder {
    let encoder = ValueEncoder(path: nextPath, omitsNil: omitsNil)
    array.append(.encoder(encoder))
    return encoder
  }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
  let encoder: ValueEncoder
  var codingPath: [any CodingKey] { encoder.codingPath }

  /// Keeps `value` as the encoder's one value.
  ///
  /// - Throws: `EncodingError` when a value was encoded at this place
  ///   already: an `encode(to:)` that writes two values through one
  ///   container (JSONEncoder stops the program there).
  private func set(_ value: JSONValue) throws {
    guard case .none = encoder.storage else {
      throw EncodingError.invalidValue(
        value,
        EncodingError.Context(
          codingPath: codingPath,
          debugDescription:
            "a single value container was given a second value (\(value.kindDescription)); an encode(to:) writes "
            + "one value through it"))
    }
    encoder.storage = .value(value)
  }

  mutating func encodeNil() throws { try set(.null) }
  mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
  mutating func encode(_ value: String) throws { try set(.string(value)) }
  mutating func encode(_ value: Double) throws { try set(JSONValueEncoder.number(value)) }
  mutating func encode(_ value: Float) throws { try set(JSONValueEncoder.number(value)) }
  mutating func encode(_ value: Int) throws { try set(.int(value)) }
  mutating func encode(_ value: Int8) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: Int16) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: Int32) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: Int64) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: UInt) throws { try set(JSONValueEncoder.number(UInt64(value))) }
  mutating func encode(_ value: UInt8) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: UInt16) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: UInt32) throws { try set(.int(Int(value))) }
  mutating func encode(_ value: UInt64) throws { try set(JSONValueEncoder.number(value)) }

  mutating func encode<T: Encodable>(_ value: T) throws {
    // The same value at the same place: the same cache.
    try set(
      try JSONValueEncoder.box(value, path: encoder.path, cache: encoder.memberCache, omitsNil: encoder.omitsNil)
        ?? .object([:]))
  }
}

/// An array whose elements can be compared with the array encoded last time
/// at the same place (``JSONMemberCache``): an element equal to the one at
/// its position then keeps that one's JSON.
private protocol ElementwiseEncodable {
  func encodeElements(path: CodingPath, cache: JSONMemberCache) throws -> JSONValue
}

/// The array a cache's value was last, and its elements' JSON.
private final class EncodedElements<Element> {
  let elements: [Element]
  let json: [JSONValue]
  init(elements: [Element], json: [JSONValue]) { (self.elements, self.json) = (elements, json) }
}

/// The chunked array a cache's value was last, and its elements' JSON,
/// chunked alike.
private final class EncodedChunks<Element> {
  let elements: ChunkedArray<Element>
  let json: JSONArray
  init(elements: ChunkedArray<Element>, json: JSONArray) { (self.elements, self.json) = (elements, json) }
}

extension ChunkedArray: ElementwiseEncodable where Element: Encodable & Equatable {
  /// A group of chunks, or a chunk, that is the same as the one at its
  /// position last time keeps its JSON as it was, without a look at its
  /// elements; any other chunk is compared element by element. So one
  /// element changed among 100,000 costs a pass over 25 groups and one
  /// group's 64 chunks, one chunk's comparison and one element's encoding.
  fileprivate func encodeElements(path: CodingPath, cache: JSONMemberCache) throws -> JSONValue {
    let previous = cache.elements as? EncodedChunks<Element>
    // The JSON encoded last time, with the chunks that changed replaced: the
    // others keep their storage and their stamps, so the diff passes them too.
    var json = previous?.json ?? []
    let kept = Swift.min(json.chunkCount, chunkCount)
    json.keepChunks(kept)
    var chunkIndex = 0
    while chunkIndex < chunkCount {
      defer { chunkIndex += 1 }
      guard let previous, chunkIndex < kept else {
        json.replaceChunk(
          chunkIndex,
          with: try Self.encode(chunk(chunkIndex), from: chunkIndex * Self.chunkSize, path: path, previous: nil))
        continue
      }
      // A whole group the same as last time: its chunks' JSON is as it was.
      if chunkIndex & (Self.chunksPerGroup - 1) == 0, chunkIndex + Self.chunksPerGroup <= kept,
        sharesGroup(ofChunk: chunkIndex, with: previous.elements)
      {
        chunkIndex += Self.chunksPerGroup - 1
        continue
      }
      guard !sharesChunk(chunkIndex, with: previous.elements) else { continue }
      json.replaceChunk(
        chunkIndex,
        with: try Self.encode(
          chunk(chunkIndex), from: chunkIndex * Self.chunkSize, path: path,
          previous: (previous.elements.chunk(chunkIndex), previous.json.chunk(chunkIndex))))
    }
    cache.elements = EncodedChunks(elements: self, json: json)
    return .array(json)
  }

  /// The JSON of `chunk`, whose first element is at `offset`, reusing the JSON
  /// of each element equal to the one at its position in `previous`.
  private static func encode(
    _ chunk: [Element], from offset: Int, path: CodingPath, previous: (elements: [Element], json: [JSONValue])?
  ) throws -> [JSONValue] {
    var json: [JSONValue] = []
    json.reserveCapacity(chunk.count)
    for index in chunk.indices {
      if let previous, index < previous.elements.count, previous.elements[index] == chunk[index] {
        json.append(previous.json[index])
      } else {
        json.append(
          try JSONValueEncoder.box(chunk[index], path: .child(path, IndexKey(intValue: offset + index))) ?? .object([:])
        )
      }
    }
    return json
  }
}

extension Array: ElementwiseEncodable where Element: Encodable & Equatable {
  /// Reuses the JSON of the elements equal to last time's at both ends (so
  /// an element put in front or taken out encodes nothing else) and of those
  /// equal to last time's at the same position in between (so a change and
  /// an append encode two).
  fileprivate func encodeElements(path: CodingPath, cache: JSONMemberCache) throws -> JSONValue {
    if let scalars = scalarJSON() { return scalars }
    let previous = cache.elements as? EncodedElements<Element>
    let old = previous?.elements ?? []
    let oldJSON = previous?.json ?? []
    let shorter = Swift.min(count, old.count)
    var prefix = 0
    while prefix < shorter && old[prefix] == self[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < shorter - prefix && old[old.count - 1 - suffix] == self[count - 1 - suffix] { suffix += 1 }
    var json: [JSONValue] = []
    json.reserveCapacity(count)
    json.append(contentsOf: oldJSON[..<prefix])
    for index in prefix..<count - suffix {
      if index < old.count && old[index] == self[index] {
        json.append(oldJSON[index])
      } else {
        json.append(
          try JSONValueEncoder.box(self[index], path: .child(path, IndexKey(intValue: index))) ?? .object([:]))
      }
    }
    json.append(contentsOf: oldJSON[(old.count - suffix)...])
    cache.elements = EncodedElements(elements: self, json: json)
    return .array(json)
  }

  /// The JSON of an array of integers, strings or booleans, written at once:
  /// comparing such elements with last time's costs as much as encoding
  /// them, and this code, generic over `Element`, would do either slowly.
  private func scalarJSON() -> JSONValue? {
    if let integers = self as? [Int] { return .array(JSONArray(integers.lazy.map(JSONValue.int))) }
    if let strings = self as? [String] { return .array(JSONArray(strings.lazy.map(JSONValue.string))) }
    if let booleans = self as? [Bool] { return .array(JSONArray(booleans.lazy.map(JSONValue.bool))) }
    return nil
  }
}
