import JSON
import Testing

/// The examples of docs/PROTOCOL.md, "Enumerations as JSON": each is
/// encoded here, must read back, and must appear in the document.
extension ProtocolDocumentTests {
  enum Status: Codable, Equatable {
    case idle
    case failed(String)
    case moved(Int, Int)
    case loaded(records: [Int], unreadable: [String])
    case note(String?)
    case orderPlaced(orderID: Int?)
  }

  @Test func enumerationExamples() throws {
    let examples: [(declaration: String, value: Status, json: String)] = [
      ("case idle", .idle, #""idle""#),
      ("case failed(String)", .failed("no network"), #"{"failed":"no network"}"#),
      ("case moved(Int, Int)", .moved(3, 4), #"{"moved":[3,4]}"#),
      (
        "case loaded(records: [BMIRecord], unreadable: [String])", .loaded(records: [], unreadable: []),
        #"{"loaded":{"records":[],"unreadable":[]}}"#
      ),
    ]
    for example in examples {
      let json = try JSONValueEncoder.encode(example.value)
      #expect(canonical(json) == example.json)
      #expect(try JSONValueDecoder.decode(Status.self, from: json) == example.value)
      expectDocumented("`\(example.declaration)` → `\(example.json)`")
    }
    // Optionals without a value: null, or left out in what a client sends.
    #expect(canonical(try JSONValueEncoder.encode(Status.note(nil))) == #"{"note":null}"#)
    expectDocumented(#"`case note(String?)` holding"# + "\n" + #"`nil` is `{"note":null}`"#)
    #expect(
      canonical(try JSONValueEncoder.encode(Status.orderPlaced(orderID: nil))) == #"{"orderPlaced":{"orderID":null}}"#)
    expectDocumented(#"`{"orderPlaced":{"orderID":null}}`"#)
    for sent in [#""note""#, #"{"orderPlaced":{}}"#] {
      _ = try JSONValueDecoder.decode(Status.self, from: json(sent))
      expectDocumented("`\(sent)`")
    }
    // Foundation's shape, as format 1 journals hold it, is read.
    #expect(try JSONValueDecoder.decode(Status.self, from: json(#"{"idle":{}}"#)) == .idle)
    #expect(try JSONValueDecoder.decode(Status.self, from: json(#"{"failed":{"_0":"…"}}"#)) == .failed("…"))
    expectDocumented(#"(`{"idle":{}}`,"# + "\n" + #"`{"failed":{"_0":"…"}}`"#)
  }
}
