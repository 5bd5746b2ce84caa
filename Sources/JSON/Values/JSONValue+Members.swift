extension JSONValue {
  /// Sets the member at `path`, the names of the objects' members from this
  /// value down, to `value`, changing each object on the way where it is
  /// rather than copying it (when this document is its only holder), and
  /// returns the value it replaced; nil when the last object had no such
  /// member, which is then added. The empty path, as the empty JSON
  /// Pointer, names this value itself.
  ///
  /// What keeps a large document up to date after an action changed one
  /// member deep inside it: the cost is the path's length, not the
  /// document's size.
  ///
  /// - Throws: ``JSONPointerError`` when a value on the way is not an
  ///   object, or has no member of the next name; nothing is changed then.
  @discardableResult
  public mutating func updateMember(_ value: JSONValue, at path: [String]) throws(JSONPointerError) -> JSONValue? {
    try updateMember(value, at: path, level: 0)
  }

  private mutating func updateMember(_ value: JSONValue, at path: [String], level: Int) throws(JSONPointerError)
    -> JSONValue?
  {
    guard level < path.count else {
      let old = self
      self = value
      return old
    }
    let key = path[level]
    guard case .object(var object) = self else {
      throw .notAContainer(
        token: key, container: JSONPointer(tokens: Array(path[..<level])), found: kindDescription)
    }
    // The object is let go of while it changes, so that it is changed in
    // place rather than copied.
    self = .null
    defer { self = .object(object) }
    if level == path.count - 1 { return object.updateValue(value, forKey: key) }
    guard
      let old = try object.modifyValue(
        forKey: key,
        { (member) throws(JSONPointerError) in
          try member.updateMember(value, at: path, level: level + 1)
        })
    else {
      throw .memberNotFound(key: key, container: JSONPointer(tokens: Array(path[..<level])))
    }
    return old
  }
}
