import ComposableCore
import JSON
import Wire

/// The actions clients sent recently, by how they wrote them, with what
/// reading them gave: the action, and its ``ActionReading``.
///
/// Clients send the same few actions again and again (a button tapped, a
/// counter incremented). Reading one from its path and arguments and
/// decoding it is a pure function of what the client wrote, so a repeated
/// action takes its reading from here. Only actions written as a path and
/// arguments of at most ``largestInput`` bytes, and read successfully, are kept, and at most
/// ``capacity`` of them: when full, the memo starts afresh. So a client
/// sending ever new or large actions costs at most a few megabytes, and an
/// action written as JSON (a program's, not a person's) is read every time.
///
/// A class, holding the actions in an array of their own: the daemon runs
/// this code generic over the app's action, where a struct or dictionary
/// value made from `Action` would cost a lookup of its type's metadata on
/// every call.
final class SentActionMemo<Action> {
  static var capacity: Int { 1024 }
  /// The longest path and arguments kept, in bytes.
  static var largestInput: Int { 1024 }
  private var indices: [ClientMessage.ActionInput: Int] = [:]
  private var actions: [Action] = []
  private var readings: [ActionReading] = []
  /// The path and arguments found or kept last, and where (-1: none).
  private var lastPath = ""
  private var lastArguments: [String] = []
  private var lastIndex = -1

  var count: Int { indices.count }

  /// The action `input` names, from the memo or read by `read` and kept,
  /// with its reading put in `reading`.
  func action(
    for input: ClientMessage.ActionInput, reading: inout ActionReading,
    read: (inout ActionReading) throws(MessageError) -> Action
  ) throws(MessageError) -> Action {
    guard case .path(let path, let arguments) = input,
      path.utf8.count + arguments.reduce(0, { $0 + $1.utf8.count }) <= Self.largestInput
    else { return try read(&reading) }
    // The action sent last is compared first: a client repeating one
    // action costs a comparison of its path, not a hash of it.
    if lastIndex >= 0, lastPath.hasSameUTF8(as: path), lastArguments.count == arguments.count,
      zip(lastArguments, arguments).allSatisfy({ $0.hasSameUTF8(as: $1) })
    {
      reading = readings[lastIndex]
      return actions[lastIndex]
    }
    if let index = indices[input] {
      (lastPath, lastArguments, lastIndex) = (path, arguments, index)
      reading = readings[index]
      return actions[index]
    }
    let action = try read(&reading)
    if indices.count >= Self.capacity {
      indices.removeAll(keepingCapacity: true)
      actions.removeAll(keepingCapacity: true)
      readings.removeAll(keepingCapacity: true)
    }
    (lastPath, lastArguments, lastIndex) = (path, arguments, actions.count)
    indices[input] = actions.count
    actions.append(action)
    readings.append(reading)
    return action
  }
}
