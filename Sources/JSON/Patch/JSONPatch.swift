/// RFC 6902 JSON Patch: applying patches, computing them, and narrowing them
/// to a subtree.
///
/// - ``apply(_:to:)`` runs the six operations against a document, atomically.
/// - ``diff(from:to:)`` computes a patch whose size follows the size of the
///   change, matching array elements by their `"id"` member.
/// - ``scoped(_:to:newDocument:)`` keeps what a path-filtered subscriber needs,
///   relative to its subtree.
///
/// The invariant the daemon and its clients rely on:
/// `apply(diff(from: a, to: b), to: a) == b` for all documents `a` and `b`.
public enum JSONPatch {
  /// Reads a patch document: a JSON array of RFC 6902 operation objects.
  ///
  /// - Throws: ``JSONPatchError`` with reason ``JSONPatchError/Reason/malformed(_:)``
  ///   naming the first operation that cannot be read.
  public static func operations(from json: JSONValue) throws(JSONPatchError) -> [PatchOperation] {
    guard case .array(let elements) = json else {
      throw JSONPatchError(
        index: 0, operation: nil,
        reason: .malformed("a patch must be an array of operations, found \(json.kindDescription)"))
    }
    var operations: [PatchOperation] = []
    operations.reserveCapacity(elements.count)
    for (index, element) in elements.enumerated() {
      do {
        operations.append(try PatchOperation(json: element))
      } catch {
        throw JSONPatchError(index: index, operation: nil, reason: .malformed(error.message))
      }
    }
    return operations
  }

  /// A patch as its JSON document: an array of operation objects.
  public static func json(_ operations: [PatchOperation]) -> JSONValue {
    .array(operations.map(\.json))
  }

  /// The canonical JSON of `operations`, written straight from them into
  /// `output`, in place of what it held: the bytes of
  /// `CanonicalJSON.encode(json(operations))`, without building that value
  /// first (the daemon writes one for every action, into an array it keeps,
  /// so that no allocation is made for it).
  public static func canonicalBytes(_ operations: [PatchOperation], into output: inout [UInt8]) {
    output.removeAll(keepingCapacity: true)
    output.reserveCapacity(64 * operations.count)
    output.append(UInt8(ascii: "["))
    for (index, operation) in operations.enumerated() {
      if index > 0 { output.append(UInt8(ascii: ",")) }
      // The members in canonical order: from, op, path, value; each
      // operation's name written with the keys around it, as one literal.
      switch operation {
      case .add(let path, let value):
        output.append(literal: #"{"op":"add","path":"#)
        write(path, value, to: &output)
      case .remove(let path):
        output.append(literal: #"{"op":"remove","path":"#)
        write(path, nil, to: &output)
      case .replace(let path, let value):
        output.append(literal: #"{"op":"replace","path":"#)
        write(path, value, to: &output)
      case .test(let path, let value):
        output.append(literal: #"{"op":"test","path":"#)
        write(path, value, to: &output)
      case .move(let from, let path):
        output.append(literal: #"{"from":"#)
        CanonicalJSON.writePointer(from, to: &output)
        output.append(literal: #","op":"move","path":"#)
        write(path, nil, to: &output)
      case .copy(let from, let path):
        output.append(literal: #"{"from":"#)
        CanonicalJSON.writePointer(from, to: &output)
        output.append(literal: #","op":"copy","path":"#)
        write(path, nil, to: &output)
      }
    }
    output.append(UInt8(ascii: "]"))
  }

  /// An operation's path, its value if it has one, and the object's end.
  private static func write(_ path: JSONPointer, _ value: JSONValue?, to output: inout [UInt8]) {
    CanonicalJSON.writePointer(path, to: &output)
    if let value {
      output.append(literal: #","value":"#)
      CanonicalJSON.write(value, to: &output)
    }
    output.append(UInt8(ascii: "}"))
  }
}
