import Glibc

/// Reads a patch written as canonical JSON (``CanonicalJSON``), an array of
/// operation objects, straight into `PatchOperation`s, without building a
/// JSON value for each operation object first.
///
/// Replaying a journal's million records is mostly decoding their patches,
/// and most of a generic parse goes into dictionaries for the
/// `{"op","path","value"}` objects and into splitting the same few paths
/// again and again. This reader walks the bytes, parses only each `value`
/// with ``JSONParser`` (small integers and literals directly), and keeps the
/// pointers it has parsed in a cache keyed by their bytes.
///
/// It returns `nil` for anything outside that form (whitespace, escapes in a
/// path, unknown members, a malformed operation); the caller then takes the
/// general path (``JSONParser`` and ``JSONPatch/operations(from:)``), which
/// also produces the precise error.
package struct PatchDecoder {
  /// Pointers by the bytes of their string form; cleared when full.
  private var pointers: [UInt64: (bytes: [UInt8], pointer: JSONPointer)] = [:]
  private static let cacheLimit = 4096

  package init() {}

  /// The operations of the patch in `bytes`, or `nil` if it is not in
  /// canonical form.
  package mutating func operations(_ bytes: ArraySlice<UInt8>) -> [PatchOperation]? {
    bytes.withUnsafeBytes { buffer in operations(buffer) }
  }

  private mutating func operations(_ bytes: UnsafeRawBufferPointer) -> [PatchOperation]? {
    var position = 0
    guard bytes.count >= 2, bytes[0] == UInt8(ascii: "["), bytes[bytes.count - 1] == UInt8(ascii: "]") else {
      return nil
    }
    position = 1
    var operations: [PatchOperation] = []
    if bytes[position] == UInt8(ascii: "]") { return position + 1 == bytes.count ? operations : nil }
    while true {
      guard let (operation, end) = operation(in: bytes, at: position) else { return nil }
      operations.append(operation)
      position = end
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard bytes[position] == UInt8(ascii: "]"), position + 1 == bytes.count else { return nil }
      return operations
    }
  }

  /// The operation object at `start`, and the offset just past it.
  private mutating func operation(
    in bytes: UnsafeRawBufferPointer, at start: Int
  ) -> (PatchOperation, Int)? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "{") else { return nil }
    var position = start + 1
    var name: UnsafeRawBufferPointer?
    var path: JSONPointer?
    var from: JSONPointer?
    var value: JSONValue?
    while true {
      guard let key = Self.plainString(in: bytes, at: position) else { return nil }
      position = key.end
      guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { return nil }
      position += 1
      switch key.bytes.count {
      case 2 where Self.equal(key.bytes, "op"):
        guard name == nil, let string = Self.plainString(in: bytes, at: position) else { return nil }
        name = string.bytes
        position = string.end
      case 4 where Self.equal(key.bytes, "path"), 4 where Self.equal(key.bytes, "from"):
        guard let string = Self.plainString(in: bytes, at: position), let pointer = pointer(string.bytes) else {
          return nil
        }
        // A member named twice is left to the general path, which refuses it.
        if key.bytes[0] == UInt8(ascii: "p") {
          guard path == nil else { return nil }
          path = pointer
        } else {
          guard from == nil else { return nil }
          from = pointer
        }
        position = string.end
      case 5 where Self.equal(key.bytes, "value"):
        guard value == nil, let end = JSONScanner.valueEnd(in: bytes, from: position),
          let parsed = Self.value(UnsafeRawBufferPointer(rebasing: bytes[position..<end]))
        else { return nil }
        value = parsed
        position = end
      default:
        return nil
      }
      guard position < bytes.count else { return nil }
      if bytes[position] == UInt8(ascii: ",") {
        position += 1
        continue
      }
      guard bytes[position] == UInt8(ascii: "}"), let name, let path else { return nil }
      position += 1
      let operation: PatchOperation
      switch name.count {
      case 3 where Self.equal(name, "add"):
        guard let value else { return nil }
        operation = .add(path: path, value: value)
      case 6 where Self.equal(name, "remove"): operation = .remove(path: path)
      case 7 where Self.equal(name, "replace"):
        guard let value else { return nil }
        operation = .replace(path: path, value: value)
      case 4 where Self.equal(name, "move"):
        guard let from else { return nil }
        operation = .move(from: from, path: path)
      case 4 where Self.equal(name, "copy"):
        guard let from else { return nil }
        operation = .copy(from: from, path: path)
      case 4 where Self.equal(name, "test"):
        guard let value else { return nil }
        operation = .test(path: path, value: value)
      default:
        return nil
      }
      return (operation, position)
    }
  }

  /// The pointer whose string form is `bytes` (no JSON escapes), from the
  /// cache if it was seen before.
  private mutating func pointer(_ bytes: UnsafeRawBufferPointer) -> JSONPointer? {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
    if let cached = pointers[hash], cached.bytes.elementsEqual(bytes) { return cached.pointer }
    let parsed: JSONPointer
    if bytes.contains(UInt8(ascii: "~")) {
      guard let pointer = try? JSONPointer(String(decoding: bytes, as: UTF8.self)) else { return nil }
      parsed = pointer
    } else if bytes.isEmpty {
      parsed = .root
    } else {
      guard bytes[0] == UInt8(ascii: "/") else { return nil }
      parsed = JSONPointer(
        tokens: bytes.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map {
          String(decoding: $0, as: UTF8.self)
        })
    }
    if pointers.count >= Self.cacheLimit { pointers.removeAll(keepingCapacity: true) }
    pointers[hash] = (Array(bytes), parsed)
    return parsed
  }

  /// A JSON value: small non-negative integers and literals directly, the
  /// rest through `JSONParser`.
  private static func value(_ bytes: UnsafeRawBufferPointer) -> JSONValue? {
    if bytes.count <= 18, bytes.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) {
      guard bytes.count == 1 || bytes[0] != UInt8(ascii: "0") else { return nil }
      return .int(bytes.reduce(0) { $0 * 10 + Int($1 &- UInt8(ascii: "0")) })
    }
    if equal(bytes, "true") { return .bool(true) }
    if equal(bytes, "false") { return .bool(false) }
    if equal(bytes, "null") { return .null }
    return try? JSONParser.parse(bytes)
  }

  /// The string at `start` if it has no escapes: its bytes between the
  /// quotes and the offset after the closing quote.
  private static func plainString(
    in bytes: UnsafeRawBufferPointer, at start: Int
  ) -> (bytes: UnsafeRawBufferPointer, end: Int)? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "\"") else { return nil }
    var position = start + 1
    while position < bytes.count {
      let byte = bytes[position]
      if byte == UInt8(ascii: "\"") {
        return (UnsafeRawBufferPointer(rebasing: bytes[start + 1..<position]), position + 1)
      }
      if byte == UInt8(ascii: "\\") || byte < 0x20 { return nil }
      position += 1
    }
    return nil
  }

  private static func equal(_ bytes: UnsafeRawBufferPointer, _ literal: StaticString) -> Bool {
    bytes.count == literal.utf8CodeUnitCount
      // invariant: a buffer that is not empty has a base address
      && (bytes.isEmpty || memcmp(bytes.baseAddress!, literal.utf8Start, bytes.count) == 0)
  }
}
