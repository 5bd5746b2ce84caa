import ComposableCore
import Features
import Wire

/// The actions clients sent recently, by how they wrote them, with what
/// reading them gave: the action, its canonical JSON and its command line.
///
/// Clients send the same few actions again and again (a button tapped, a
/// counter incremented). Reading one from its path and arguments, decoding
/// it, and encoding and describing it again for the journal and the diffs
/// was a quarter of the daemon's work per action (docs/BENCHMARKS.md); all
/// four are pure functions of what the client wrote, so a repeated action
/// takes them from here. Only actions that were read successfully are kept,
/// and at most ``capacity`` of them: when full, the memo starts afresh, so a
/// client sending ever new actions costs a little memory and no more.
struct SentActionMemo {
  struct Entry {
    let action: AppFeature.Action
    let json: JSONValue
    let summary: String
  }

  static let capacity = 1024
  private var entries: [ClientMessage.ActionInput: Entry] = [:]

  var count: Int { entries.count }

  /// The entry for `input`, from the memo or made by `read` and kept.
  mutating func entry(
    for input: ClientMessage.ActionInput, read: () throws(MessageError) -> Entry
  ) throws(MessageError) -> Entry {
    if let entry = entries[input] { return entry }
    let entry = try read()
    if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
    entries[input] = entry
    return entry
  }
}
