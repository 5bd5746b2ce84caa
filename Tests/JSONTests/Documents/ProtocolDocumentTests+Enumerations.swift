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

  enum Tally: Codable, Equatable {
    case counts([String: Int])
    case maybe([String: Int]?)
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
    // The longer form, where the short one would read as it.
    #expect(canonical(try JSONValueEncoder.encode(Tally.counts([:]))) == #"{"counts":{"_0":{}}}"#)
    #expect(canonical(try JSONValueEncoder.encode(Tally.counts(["a": 1]))) == #"{"counts":{"a":1}}"#)
    expectDocumented(#"`case counts([String: Int])` holding `[:]` is `{"counts":{"_0":{}}}`,"#)
    expectDocumented(#"holding `["a": 1]` it is `{"counts":{"a":1}}`"#)
    // Read: `_0` when it is the only member, no value for `{}`, else the object itself.
    #expect(try JSONValueDecoder.decode(Tally.self, from: json(#"{"counts":{"_0":{}}}"#)) == .counts([:]))
    #expect(try JSONValueDecoder.decode(Tally.self, from: json(#"{"counts":{"_0":{"a":1}}}"#)) == .counts(["a": 1]))
    #expect(try JSONValueDecoder.decode(Tally.self, from: json(#"{"counts":{"a":1}}"#)) == .counts(["a": 1]))
    #expect(try JSONValueDecoder.decode(Tally.self, from: json(#"{"maybe":{}}"#)) == .maybe(nil))
    #expect(throws: (any Error).self) { try JSONValueDecoder.decode(Tally.self, from: json(#"{"counts":{}}"#)) }

    // Foundation's shape, as format 1 journals hold it, is read.
    #expect(try JSONValueDecoder.decode(Status.self, from: json(#"{"idle":{}}"#)) == .idle)
    #expect(try JSONValueDecoder.decode(Status.self, from: json(#"{"failed":{"_0":"…"}}"#)) == .failed("…"))
    expectDocumented(#"(`{"idle":{}}`,"# + "\n" + #"`{"failed":{"_0":"…"}}`"#)
  }
}
