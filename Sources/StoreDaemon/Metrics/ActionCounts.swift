import ActionLanguage
import JSON

/// The actions reduced, counted by case (``ActionPath/casePath(of:schema:)``:
/// a name per case of the app's schema, ids left out, so the counts stay as
/// few as the cases) and by who sent them, for the metrics. Confined to the
/// loop's thread.
struct ActionCounts {
  /// Who sent an action, as the metrics label it.
  enum Sender: String, CaseIterable {
    /// A client's `send`.
    case client
    /// An effect, or a reply an effect's action maps to.
    case effect
    /// The recovery after a crash (``Turn/reduceRecoveryActions()``).
    case recovery
  }

  struct Key: Hashable {
    let casePath: String
    let sender: Sender
  }

  /// The counts, in the order their keys were first seen.
  private(set) var counts: [(key: Key, count: UInt64)] = []
  private var indices: [Key: Int] = [:]
  /// The action counted last, by its canonical bytes, and where its count
  /// is: the same action again (a counter's `increment`, a client sending
  /// one action over and over) is counted without reading its case again.
  private var last: (bytes: [UInt8], sender: Sender, index: Int)?

  /// Counts the action whose canonical JSON is `bytes` (and `json`).
  mutating func count(bytes: [UInt8], json: JSONValue, sender: Sender, schema: ActionSchema) {
    if let last, last.sender == sender, last.bytes == bytes {
      counts[last.index].count += 1
      return
    }
    let key = Key(casePath: ActionPath.casePath(of: json, schema: schema) ?? "(not in the schema)", sender: sender)
    let index: Int
    if let known = indices[key] {
      index = known
    } else {
      index = counts.count
      indices[key] = index
      counts.append((key, 0))
    }
    counts[index].count += 1
    last = (bytes, sender, index)
  }

  /// Adds `other`'s counts, keys new here after those already seen.
  mutating func add(_ other: ActionCounts) {
    for (key, count) in other.counts {
      if let index = indices[key] {
        counts[index].count += count
      } else {
        indices[key] = counts.count
        counts.append((key, count))
      }
    }
  }
}
