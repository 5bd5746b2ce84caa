import ComposableCore

extension JSONPatch {
  /// Applies `operations` in order to `document`, per RFC 6902.
  ///
  /// Atomic: the result is returned only if every operation succeeds; on an
  /// error the caller's document is untouched (it is a value) and the error
  /// names the failing operation's index, its paths and why.
  ///
  /// Containers along each operation's path are copied at most once per call
  /// (the first write shares storage with `document`), so a patch of a few
  /// operations into a large document costs the size of the arrays and
  /// objects it descends through, not the size of the document.
  public static func apply(
    _ operations: [PatchOperation], to document: JSONValue
  ) throws(JSONPatchError) -> JSONValue {
    var result = document
    for (index, operation) in operations.enumerated() {
      if let reason = perform(operation, on: &result) {
        throw JSONPatchError(index: index, operation: operation, reason: reason)
      }
    }
    return result
  }

  /// Whether two values are equal as RFC 6902's `test` defines it: like `==`,
  /// except that numbers compare by value (`1` equals `1.0`).
  public static func equal(_ lhs: JSONValue, _ rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.int(let int), .double(let double)), (.double(let double), .int(let int)):
      return Int(exactly: double) == int
    case (.array(let left), .array(let right)):
      return left.count == right.count && zip(left, right).allSatisfy { equal($0, $1) }
    case (.object(let left), .object(let right)):
      guard left.count == right.count else { return false }
      for (key, value) in left {
        guard let other = right[key], equal(value, other) else { return false }
      }
      return true
    default:
      return lhs == rhs
    }
  }

  /// Performs one operation; returns why it failed, or `nil`.
  private static func perform(_ operation: PatchOperation, on document: inout JSONValue) -> JSONPatchError.Reason? {
    do throws(JSONPointerError) {
      switch operation {
      case .add(let path, let value):
        try add(value, at: path, in: &document)
      case .remove(let path):
        guard !path.isRoot else { return .removeRoot }
        _ = try remove(at: path, in: &document)
      case .replace(let path, let value):
        try replace(at: path, with: value, in: &document)
      case .move(let from, let path):
        if from == path {
          _ = try from.resolve(in: document)
        } else {
          guard !from.isPrefix(of: path) else { return .moveIntoDescendant }
          let value = try remove(at: from, in: &document)
          try add(value, at: path, in: &document)
        }
      case .copy(let from, let path):
        try add(try from.resolve(in: document), at: path, in: &document)
      case .test(let path, let expected):
        let actual = try path.resolve(in: document)
        guard equal(actual, expected) else { return .testFailed(expected: expected, actual: actual) }
      }
    } catch {
      return .pointer(error)
    }
    return nil
  }

  private static func add(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue) throws(JSONPointerError) {
    guard !path.isRoot else {
      document = value
      return
    }
    try withParent(of: path, in: &document) { (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      switch container {
      case .object(var members):
        container = .null
        members[token] = value
        container = .object(members)
      case .array(var elements):
        let index = try path.insertionIndex(token, count: elements.count, level: level)
        container = .null
        elements.insert(value, at: index)
        container = .array(elements)
      default:
        throw .notAContainer(token: token, container: path.prefix(level), found: container.kindDescription)
      }
    }
  }

  private static func remove(at path: JSONPointer, in document: inout JSONValue) throws(JSONPointerError) -> JSONValue {
    try withParent(of: path, in: &document) { (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      switch container {
      case .object(var members):
        guard members[token] != nil else { throw .memberNotFound(key: token, container: path.prefix(level)) }
        container = .null
        let removed = members.removeValue(forKey: token)
        container = .object(members)
        return removed ?? .null
      case .array(var elements):
        let index = try path.existingIndex(token, count: elements.count, level: level)
        container = .null
        let removed = elements.remove(at: index)
        container = .array(elements)
        return removed
      default:
        throw .notAContainer(token: token, container: path.prefix(level), found: container.kindDescription)
      }
    }
  }

  private static func replace(at path: JSONPointer, with value: JSONValue, in document: inout JSONValue) throws(JSONPointerError) {
    guard !path.isRoot else {
      document = value
      return
    }
    try withParent(of: path, in: &document) { (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      switch container {
      case .object(var members):
        guard members[token] != nil else { throw .memberNotFound(key: token, container: path.prefix(level)) }
        container = .null
        members[token] = value
        container = .object(members)
      case .array(var elements):
        let index = try path.existingIndex(token, count: elements.count, level: level)
        container = .null
        elements[index] = value
        container = .array(elements)
      default:
        throw .notAContainer(token: token, container: path.prefix(level), found: container.kindDescription)
      }
    }
  }

  /// Calls `body` with the container holding `path`'s target (in place), the
  /// last token, and that token's level. `path` must not be the root.
  ///
  /// Each container on the way is taken out of its enum case before the
  /// recursion (leaving `.null` behind for the moment) so that its storage is
  /// uniquely referenced and mutated in place, then put back.
  private static func withParent<Result>(
    of path: JSONPointer, in document: inout JSONValue,
    _ body: (inout JSONValue, String, Int) throws(JSONPointerError) -> Result
  ) throws(JSONPointerError) -> Result {
    try descend(&document, path, level: 0, body)
  }

  private static func descend<Result>(
    _ value: inout JSONValue, _ path: JSONPointer, level: Int,
    _ body: (inout JSONValue, String, Int) throws(JSONPointerError) -> Result
  ) throws(JSONPointerError) -> Result {
    let token = path.tokens[level]
    if level == path.tokens.count - 1 { return try body(&value, token, level) }
    switch value {
    case .object(var members):
      guard members[token] != nil else { throw .memberNotFound(key: token, container: path.prefix(level)) }
      value = .null
      defer { value = .object(members) }
      return try descend(&members[token]!, path, level: level + 1, body)
    case .array(var elements):
      let index = try path.existingIndex(token, count: elements.count, level: level)
      value = .null
      defer { value = .array(elements) }
      return try descend(&elements[index], path, level: level + 1, body)
    default:
      throw .notAContainer(token: token, container: path.prefix(level), found: value.kindDescription)
    }
  }
}
