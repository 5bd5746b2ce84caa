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

  private static func add(_ value: JSONValue, at path: JSONPointer, in document: inout JSONValue)
    throws(JSONPointerError)
  {
    guard !path.isRoot else {
      document = value
      return
    }
    try withParent(of: path, in: &document) {
      (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      if var members = container.takeMembers() {
        members[token] = value
        container = .object(members)
      } else if var elements = container.takeElements() {
        defer { container = .array(elements) }
        let index = try path.insertionIndex(token, count: elements.count, level: level)
        elements.insert(value, at: index)
      } else {
        throw .notAContainer(token: token, container: path.prefix(level), found: container.kindDescription)
      }
    }
  }

  private static func remove(at path: JSONPointer, in document: inout JSONValue) throws(JSONPointerError) -> JSONValue {
    try withParent(of: path, in: &document) {
      (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      if var members = container.takeMembers() {
        defer { container = .object(members) }
        guard let removed = members.removeValue(forKey: token) else {
          throw .memberNotFound(key: token, container: path.prefix(level))
        }
        return removed
      } else if var elements = container.takeElements() {
        defer { container = .array(elements) }
        let index = try path.existingIndex(token, count: elements.count, level: level)
        return elements.remove(at: index)
      } else {
        throw .notAContainer(token: token, container: path.prefix(level), found: container.kindDescription)
      }
    }
  }

  private static func replace(at path: JSONPointer, with value: JSONValue, in document: inout JSONValue)
    throws(JSONPointerError)
  {
    guard !path.isRoot else {
      document = value
      return
    }
    try withParent(of: path, in: &document) {
      (container: inout JSONValue, token: String, level: Int) throws(JSONPointerError) in
      if var members = container.takeMembers() {
        defer { container = .object(members) }
        guard members[token] != nil else { throw .memberNotFound(key: token, container: path.prefix(level)) }
        members[token] = value
      } else if var elements = container.takeElements() {
        defer { container = .array(elements) }
        let index = try path.existingIndex(token, count: elements.count, level: level)
        elements[index] = value
      } else {
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
    if var members = value.takeMembers() {
      defer { value = .object(members) }
      guard members[token] != nil else { throw .memberNotFound(key: token, container: path.prefix(level)) }
      // invariant: the guard just above found the member
      return try descend(&members[token]!, path, level: level + 1, body)
    } else if var elements = value.takeElements() {
      defer { value = .array(elements) }
      let index = try path.existingIndex(token, count: elements.count, level: level)
      return try descend(&elements[index], path, level: level + 1, body)
    } else {
      throw .notAContainer(token: token, container: path.prefix(level), found: value.kindDescription)
    }
  }
}

extension JSONValue {
  /// An object's members, taken out of `self` (which is left `.null`), so
  /// that the caller holds the only reference to their storage and changes
  /// it in place before putting it back; `nil`, leaving `self` as it is, for
  /// anything else.
  ///
  /// Not a `switch` with `case .object(var members)`: the value switched on
  /// stays referenced for the whole `switch`, so every change would copy the
  /// container — a 100,000-element array per operation when a journal is
  /// replayed.
  fileprivate mutating func takeMembers() -> JSONObject? {
    guard isObject, case .object(let members) = take() else { return nil }
    return members
  }

  /// An array's elements, taken out of `self` like ``takeMembers()``.
  fileprivate mutating func takeElements() -> JSONArray? {
    guard isArray, case .array(let elements) = take() else { return nil }
    return elements
  }

  private var isObject: Bool {
    if case .object = self { true } else { false }
  }

  private var isArray: Bool {
    if case .array = self { true } else { false }
  }

  /// This value, leaving `.null` in its place.
  private mutating func take() -> JSONValue {
    var taken = JSONValue.null
    swap(&taken, &self)
    return taken
  }
}
