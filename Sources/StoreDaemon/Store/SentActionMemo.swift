import ComposableCore
import JSON
import Wire

/// The actions clients sent recently, by how they wrote them, with what
/// reading them gave: the action, its canonical JSON and its command line.
///
/// Clients send the same few actions again and again (a button tapped, a
/// counter incremented). Reading one from its path and arguments and
/// decoding it is a pure function of what the client wrote, so a repeated
/// action takes its reading from here. Only actions written as a path and
/// arguments of at most ``largestInput`` bytes, and read successfully, are kept, and at most
/// ``capacity`` of them: when full, the memo starts afresh. So a client
/// sending ever new or large actions costs at most a few megabytes, and an
/// action written as JSON (a program's, not a person's) is read every time.
struct SentActionMemo<Action> {
  typealias Entry = SentAction<Action>

  static var capacity: Int { 1024 }
  /// The longest path and arguments kept, in bytes.
  static var largestInput: Int { 1024 }
  private var entries: [ClientMessage.ActionInput: Entry] = [:]

  var count: Int { entries.count }

  /// The entry for `input`, from the memo or made by `read` and kept.
  mutating func entry(
    for input: ClientMessage.ActionInput, read: () throws(MessageError) -> Entry
  ) throws(MessageError) -> Entry {
    guard case .path(let path, let arguments) = input,
      path.utf8.count + arguments.reduce(0, { $0 + $1.utf8.count }) <= Self.largestInput
    else { return try read() }
    if let entry = entries[input] { return entry }
    let entry = try read()
    if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
    entries[input] = entry
    return entry
  }
}
