/// The keys that led to a value being encoded or decoded, shared by the
/// values below it instead of copied into each; made into an array only when
/// asked for (by a type's own `encode(to:)` or `init(from:)`, or for an
/// error's context).
///
/// ``JSONValueEncoder`` and ``JSONValueDecoder`` pass one down each level:
/// a link to the parent, where an array would be copied and grown for every
/// nested container and member.
indirect enum CodingPath {
  case root
  case child(CodingPath, any CodingKey)

  func child(_ key: any CodingKey) -> CodingPath { .child(self, key) }

  /// The keys from the root down.
  var keys: [any CodingKey] {
    var keys: [any CodingKey] = []
    var node = self
    while case .child(let parent, let key) = node {
      keys.append(key)
      node = parent
    }
    return keys.reversed()
  }
}
