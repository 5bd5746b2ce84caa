import TestSupport
import Testing
import Wire

/// Hex test vectors from docs/PROTOCOL.md, section "Frames".
struct FrameVector: Sendable, CustomTestStringConvertible {
  let name: String
  let payload: String
  let frameHex: String
  var testDescription: String { name }
}

let frameVectors = [
  FrameVector(name: "empty payload", payload: "", frameHex: "00000000"),
  FrameVector(name: "one byte", payload: "A", frameHex: "0000000141"),
  FrameVector(name: "small JSON", payload: #"{"type":"ping"}"#, frameHex: "0000000f7b2274797065223a2270696e67227d"),
]

func hex(_ bytes: [UInt8]) -> String { bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined() }

extension String {
  func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

@Suite(.ownThreads) struct FrameTests {
  @Test(arguments: frameVectors)
  func encodesTheDocumentedBytes(_ vector: FrameVector) throws {
    #expect(hex(try FrameEncoder.frame(Array(vector.payload.utf8))) == vector.frameHex)
  }

  @Test(arguments: frameVectors)
  func decodesTheDocumentedBytesOneByteAtATime(_ vector: FrameVector) throws {
    let bytes = try FrameEncoder.frame(Array(vector.payload.utf8))
    var decoder = FrameDecoder()
    for (offset, byte) in bytes.enumerated() {
      if offset < bytes.count - 1 {
        decoder.append([byte])
        #expect(try decoder.nextFrame() == nil)
      } else {
        decoder.append([byte])
      }
    }
    #expect(try decoder.nextFrame() == Array(vector.payload.utf8))
    #expect(decoder.bufferedByteCount == 0)
    try decoder.finish()
  }

  @Test func incompleteFrameConsumesNothing() throws {
    var decoder = FrameDecoder()
    decoder.append([0, 0, 0, 5, 1, 2])
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 6)
    decoder.append([3, 4, 5, 0, 0])
    #expect(try decoder.nextFrame() == [1, 2, 3, 4, 5])
    #expect(try decoder.nextFrame() == nil)
    #expect(decoder.bufferedByteCount == 2)
  }

  @Test func severalFramesInOneRead() throws {
    var decoder = FrameDecoder()
    decoder.append(try FrameEncoder.frame([1]) + FrameEncoder.frame([]) + FrameEncoder.frame([2, 3]))
    #expect(try decoder.nextFrame() == [1])
    #expect(try decoder.nextFrame() == [])
    #expect(try decoder.nextFrame() == [2, 3])
    #expect(try decoder.nextFrame() == nil)
  }

  /// The table of docs/PROTOCOL.md, "Frames", shows these vectors and the
  /// decoder's own refusal.
  @Test func theDocumentShowsTheVectors() {
    let rows = ["| (empty) |", "| `A` |", #"| `{"type":"ping"}` (15 bytes) |"#]
    for (row, vector) in zip(rows, frameVectors) {
      #expect(ProtocolDocument.text.contains("\(row) `\(vector.frameHex)` |"), "\(row) `\(vector.frameHex)`")
    }
    let refusal = "\(FrameError.oversized(length: 1025, maximum: 1024))"
    #expect(ProtocolDocument.text.contains("| `00000401` → refused: `\(refusal)` |"), "\(refusal)")
  }

  @Test func oversizedHeaderFailsBeforeThePayloadArrives() {
    var decoder = FrameDecoder(maximum: 1024)
    decoder.append([0x00, 0x00, 0x04, 0x01])
    #expect(throws: FrameError.oversized(length: 1025, maximum: 1024)) { try decoder.nextFrame() }
  }

  @Test func largestLengthIsRejectedWithoutAllocating() {
    var decoder = FrameDecoder()
    decoder.append([0xFF, 0xFF, 0xFF, 0xFF])
    #expect(throws: FrameError.oversized(length: UInt32.max, maximum: FrameDecoder.defaultMaximum)) {
      try decoder.nextFrame()
    }
  }

  @Test func encoderRefusesOversizedPayloads() {
    #expect(throws: FrameError.oversized(length: 11, maximum: 10)) {
      try FrameEncoder.frame([UInt8](repeating: 0, count: 11), maximum: 10)
    }
  }

  @Test func closingInsideAFrameIsReported() {
    var decoder = FrameDecoder()
    decoder.append([0, 0, 0, 10, 1, 2, 3])
    #expect(throws: FrameError.truncated(expected: 14, received: 7)) { try decoder.finish() }
    var header = FrameDecoder()
    header.append([0, 0])
    #expect(throws: FrameError.truncated(expected: 4, received: 2)) { try header.finish() }
  }

  @Test func errorsSayWhatWasExpected() {
    #expect(
      "\(FrameError.oversized(length: 2000, maximum: 1000))" == "frame of 2000 bytes exceeds the maximum of 1000 bytes")
  }
}
