import Glibc

extension String {
  /// Whether the string's UTF-8 is exactly `bytes`: what a client wrote,
  /// compared byte for byte rather than with the canonical equivalence
  /// `==` looks for.
  package func hasUTF8(_ bytes: UnsafeRawBufferPointer) -> Bool {
    let compared = utf8.withContiguousStorageIfAvailable { utf8 in
      guard utf8.count == bytes.count else { return false }
      guard let stored = utf8.baseAddress, let given = bytes.baseAddress else { return true }
      return memcmp(stored, given, bytes.count) == 0
    }
    return compared ?? utf8.elementsEqual(bytes)
  }

  /// Whether `other`'s UTF-8 is the same bytes as this string's.
  package func hasSameUTF8(as other: String) -> Bool {
    other.utf8.withContiguousStorageIfAvailable { hasUTF8(UnsafeRawBufferPointer($0)) }
      ?? utf8.elementsEqual(other.utf8)
  }
}
