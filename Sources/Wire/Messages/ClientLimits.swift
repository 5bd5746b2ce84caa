/// The most the daemon reads of a client's message: enough for any request a
/// person or a program makes, and small enough that handling the worst one
/// costs the store loop a small, bounded amount (docs/PROTOCOL.md, "Limits").
///
/// The connection's own thread checks them as it reads the message, before
/// the loop sees it; a message past one is refused with an error naming the
/// limit. The frame itself is at most 1 MiB (``FrameDecoder``, from its header).
public enum ClientLimits {
  /// How deep arrays and objects may nest, in a frame and in each argument
  /// written as JSON. The deepest action an app has nests about a dozen levels.
  public static let depth = 64
  /// The longest path, in bytes: a `send`'s action path, or the state path
  /// (JSON Pointer) of a `get` or `subscribe`; an app's are a few dozen.
  public static let pathBytes = 1024
  /// The largest `send`, in bytes of its frame's payload: its path and
  /// arguments, or its action as JSON. An action a person or a program sends
  /// is well under a kilobyte; reading one costs the loop up to a few
  /// microseconds per byte (a JSON argument of many small values).
  public static let sendBytes = 8_192
  /// The longest client name a `hello` gives, in bytes: the journal records
  /// it with every action the client sends.
  public static let clientNameBytes = 256

  /// Checks the `path` of a message of `type`.
  static func check(path: String, in type: String) throws(MessageError) {
    let bytes = path.utf8.count
    guard bytes <= pathBytes else {
      throw MessageError(.invalidMessage, "'\(type)': 'path' is \(bytes) bytes; at most \(pathBytes) are accepted")
    }
  }

  /// Checks the path and arguments of a `send`.
  static func check(path: String, arguments: [String]) throws(MessageError) {
    try check(path: path, in: "send")
    for (index, argument) in arguments.enumerated() {
      let depth = nestingDepth(of: argument)
      guard depth <= Self.depth else {
        throw MessageError(
          .invalidMessage,
          "'send': argument \(index + 1) nests arrays and objects \(depth) levels deep; at most \(Self.depth) are accepted"
        )
      }
    }
  }

  /// Checks the size of a `send` whose payload is `bytes` long.
  public static func check(sendBytes bytes: Int) throws(MessageError) {
    guard bytes <= sendBytes else {
      throw MessageError(.invalidMessage, "'send' is \(bytes) bytes; at most \(sendBytes) are accepted")
    }
  }

  /// Checks the client name of a `hello`.
  public static func check(clientName: String) throws(MessageError) {
    let bytes = clientName.utf8.count
    guard bytes <= clientNameBytes else {
      throw MessageError(.handshake, "'hello': 'client' is \(bytes) bytes; at most \(clientNameBytes) are accepted")
    }
  }

  /// How deep brackets and braces nest in `text` read as JSON, those inside
  /// strings not counted; one pass, whatever `text` is.
  static func nestingDepth(of text: String) -> Int {
    var (depth, deepest) = (0, 0)
    var (inString, escaped) = (false, false)
    for byte in text.utf8 {
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "["), UInt8(ascii: "{"):
        depth += 1
        deepest = max(deepest, depth)
      case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
      default: break
      }
    }
    return deepest
  }
}
