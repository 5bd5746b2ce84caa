import Foundation

/// docs/PROTOCOL.md, for the tests that hold what it shows to what the code
/// does: its text, the messages of its example session, and its examples
/// with parts left out (`…`).
public enum ProtocolDocument {
  /// The document's text; empty if it cannot be read (the tests that look
  /// for something in it then fail, naming what they looked for).
  public static let text: String = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
    return (try? String(contentsOf: url, encoding: .utf8)) ?? ""
  }()

  /// One message of "Example session with test vectors": a heading such as
  /// `daemon → client, ack (33 bytes):`, then a block of the payload and
  /// the whole frame in hex.
  public struct SessionMessage: Sendable, CustomStringConvertible {
    /// Whether the client sends it (`client → daemon`).
    public let isFromClient: Bool
    /// What the heading calls it: `hello`, `ack`, …
    public let name: String
    /// The payload's length as the heading gives it.
    public let statedByteCount: Int
    /// The payload, as the block shows it.
    public let payload: String
    /// The frame, length included, in hex, as the block shows it.
    public let frameHex: String

    public var description: String { "\(isFromClient ? "client" : "daemon") \(name)" }
  }

  /// The messages of the example session, in order.
  public static var exampleSession: [SessionMessage] {
    guard let start = text.range(of: "## Example session with test vectors"),
      let end = text.range(of: "\n## ", range: start.upperBound..<text.endIndex)
    else { return [] }
    let lines = text[start.upperBound..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
    var messages: [SessionMessage] = []
    for (index, line) in lines.enumerated() {
      let direction: Bool
      if line.hasPrefix("client → daemon, ") {
        direction = true
      } else if line.hasPrefix("daemon → client, ") {
        direction = false
      } else {
        continue
      }
      // "NAME (N bytes):", then a blank line, the fence, payload, hex, fence.
      let heading = line.dropFirst("client → daemon, ".count)
      guard heading.hasSuffix(" bytes):"), let open = heading.lastIndex(of: "("),
        let count = Int(heading[heading.index(after: open)...].dropLast(" bytes):".count)),
        index + 4 < lines.count, lines[index + 2] == "```"
      else { continue }
      messages.append(
        SessionMessage(
          isFromClient: direction, name: String(heading[..<open].dropLast()), statedByteCount: count,
          payload: String(lines[index + 3]), frameHex: String(lines[index + 4])))
    }
    return messages
  }

  /// The example in the document that begins with `prefix` (a whole line of
  /// it, indented or not), or nil.
  public static func example(startingWith prefix: String) -> String? {
    text.split(separator: "\n").lazy.map { $0.drop { $0 == " " } }.first { $0.hasPrefix(prefix) }.map(String.init)
  }

  /// Whether `actual` is `example` where each `…` of the example stands for
  /// any text: the pieces between them appear in order, the first at the
  /// start and the last at the end.
  public static func matches(_ actual: String, example: String) -> Bool {
    let pieces = example.components(separatedBy: "…")
    guard pieces.count > 1 else { return actual == example }
    guard actual.hasPrefix(pieces[0]), actual.hasSuffix(pieces[pieces.count - 1]),
      actual.count >= pieces[0].count + pieces[pieces.count - 1].count
    else { return false }
    var rest = actual.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count)
    for piece in pieces.dropFirst().dropLast() {
      guard let found = rest.range(of: piece) else { return false }
      rest = rest[found.upperBound...]
    }
    return true
  }

  /// `text` with what changes from one run to the next made the same:
  /// each UUID becomes `UUID`, and each run of digits `0`. For comparing an
  /// example's shape (its members, their order and kinds) with what a daemon
  /// answered.
  public static func normalized(_ text: String) -> String {
    var result = text.replacingOccurrences(
      of: "[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}", with: "UUID",
      options: .regularExpression)
    result = result.replacingOccurrences(of: "[0-9]+", with: "0", options: .regularExpression)
    return result
  }
}
