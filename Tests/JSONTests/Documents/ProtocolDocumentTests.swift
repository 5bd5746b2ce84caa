import FoundationEssentials
import JSON
import Testing

/// The examples in docs/PROTOCOL.md ("State as JSON", "Diffs"): each is
/// computed here and must appear in the document byte for byte.
@Suite struct ProtocolDocumentTests {
  static let document: String = {
    let url = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent().appendingPathComponent("docs/PROTOCOL.md")
    return (try? String(decoding: Data(contentsOf: url), as: UTF8.self)) ?? ""
  }()

  func expectDocumented(_ text: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(Self.document.contains(text), "not in docs/PROTOCOL.md: \(text)", sourceLocation: sourceLocation)
  }

  @Test func canonicalJSONVectors() {
    let vectors: [(JSONValue, String)] = [
      (
        .object(["b": .int(1), "a": .array([.bool(true), .null]), "B": .object([:])]),
        #"{"B":{},"a":[true,null],"b":1}"#
      ),
      (.string("line\nbreak \"quoted\" a/b é \u{1}"), #""line\nbreak \"quoted\" a/b é \u0001""#),
      (.array([.double(1.0), .double(0.1), .double(1e-7), .double(1e16), .int(-3)]), "[1.0,0.1,1e-07,1e+16,-3]"),
    ]
    for (value, bytes) in vectors {
      #expect(canonical(value) == bytes)
      expectDocumented("| `\(bytes)` |")
    }
    expectDocumented(#".object(["b": .int(1), "a": .array([.bool(true), .null]), "B": .object([:])])"#)
    expectDocumented(#".string("line\nbreak \"quoted\" a/b é \u{1}")"#)
    expectDocumented(".array([.double(1.0), .double(0.1), .double(1e-7), .double(1e16), .int(-3)])")
    expectDocumented("expected ',' or '}' at byte 7, found '\"'")
  }

  struct Example {
    let old: String
    let new: String
    let patch: String
    let scoped: [(path: String, patch: String)]
  }

  static let examples = [
    Example(
      old: #"{"order":{"lines":[{"id":1,"qty":1},{"id":2,"qty":5}]},"rates":{"EUR/USD":1.08}}"#,
      new: #"{"order":{"lines":[{"id":1,"qty":2},{"id":2,"qty":5}]},"rates":{"EUR/USD":1.09}}"#,
      patch:
        #"[{"op":"replace","path":"/order/lines/0/qty","value":2},{"op":"replace","path":"/rates/EUR~1USD","value":1.09}]"#,
      scoped: [("/order", #"[{"op":"replace","path":"/lines/0/qty","value":2}]"#)]),
    Example(
      old:
        #"{"todos":[{"done":false,"id":1},{"done":false,"id":2},{"done":false,"id":3},{"done":false,"id":4},{"done":false,"id":5}]}"#,
      new:
        #"{"todos":[{"done":false,"id":5},{"done":true,"id":1},{"done":false,"id":3},{"done":false,"id":4},{"done":false,"id":6}]}"#,
      patch:
        #"[{"op":"remove","path":"/todos/1"},{"from":"/todos/3","op":"move","path":"/todos/0"},{"op":"add","path":"/todos/4","value":{"done":false,"id":6}},{"op":"replace","path":"/todos/1/done","value":true}]"#,
      scoped: [("/todos/1", #"[{"op":"replace","path":"","value":{"done":true,"id":1}}]"#)]),
    Example(
      old: #"{"todos":[{"done":false,"id":1},{"done":false,"id":2},{"done":true,"id":3}]}"#,
      new: #"{"todos":[]}"#,
      patch: #"[{"op":"replace","path":"/todos","value":[]}]"#,
      scoped: []),
  ]

  @Test func workedDiffExamples() throws {
    for example in Self.examples {
      let old = try json(example.old)
      let new = try json(example.new)
      #expect(canonical(old) == example.old)
      #expect(canonical(new) == example.new)
      let operations = JSONPatch.diff(from: old, to: new)
      #expect(canonical(operations) == example.patch)
      #expect(try JSONPatch.apply(operations, to: old) == new)
      for scoped in example.scoped {
        let view = JSONPatch.scoped(operations, to: try pointer(scoped.path), newDocument: new)
        #expect(view.map(canonical) == scoped.patch)
        expectDocumented("```json\n\(scoped.patch)\n```")
      }
      for text in [example.old, example.new, example.patch] { expectDocumented("```json\n\(text)\n```") }
    }
  }
}
