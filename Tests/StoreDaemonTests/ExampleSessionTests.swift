import Foundation
import JSON
import TestSupport
import Testing
import Wire

/// docs/PROTOCOL.md's example session, played with a real daemon: the
/// client writes the document's frames, byte for byte, and the daemon must
/// answer each with the document's bytes, its own (random) epoch aside.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3)))
struct ExampleSessionTests {
  /// The epoch the document's welcome shows.
  static let documentedEpoch = "5f1c2e9a0b7d4c13"

  @Test func aDaemonAnswersTheDocumentedSessionWithTheDocumentedBytes() throws {
    let session = ProtocolDocument.exampleSession
    #expect(session.filter(\.isFromClient).count == 4 && session.count == 9, "\(session)")
    // No heartbeat may come between the snapshot and the diff, however long
    // a busy machine takes between them.
    let daemon = try LoopDaemon(arguments: ["--heartbeat", "3600"])
    let raw = try RawConnection(daemon)
    for message in session {
      if message.isFromClient {
        try raw.write(Self.bytes(fromHex: message.frameHex))
        continue
      }
      if message.name == "diff" {
        // The document's other client.
        #expect(try daemon.client("other").send(path: "counter.incrementButtonTapped") == 2)
      }
      let payload = try #require(try raw.readPayload(), "the daemon closed the connection before its \(message.name)")
      var text = String(decoding: payload, as: UTF8.self)
      if message.name == "welcome", case .object(let welcome) = try JSONParser.parse(payload),
        case .string(let epoch)? = welcome["epoch"]
      {
        #expect(epoch.utf8.count == Self.documentedEpoch.utf8.count, "an epoch is 16 hex digits: \(epoch)")
        text = text.replacingOccurrences(of: epoch, with: Self.documentedEpoch)
      }
      #expect(text == message.payload, "the daemon's \(message.name)")
      #expect(
        Self.hex(try FrameEncoder.frame(Array(text.utf8))) == message.frameHex,
        "the \(message.name)'s frame, its length included")
    }
  }

  static func bytes(fromHex hex: String) -> [UInt8] {
    var result: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
      result.append(UInt8(hex[index..<next], radix: 16) ?? 0)
      index = next
    }
    return result
  }

  static func hex(_ bytes: [UInt8]) -> String {
    bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
  }
}
