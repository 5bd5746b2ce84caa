extension Array where Element == UInt8 {
  /// Appends a string literal's UTF-8 bytes as one copy: appending a
  /// `String`'s `utf8` view instead walks it a byte at a time, which on the
  /// paths that write every frame and record cost more than the copy.
  @inlinable
  package mutating func append(literal: StaticString) {
    literal.withUTF8Buffer { append(contentsOf: $0) }
  }
}
