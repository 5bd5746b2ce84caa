import JSON
import Testing

@Suite struct PatchDecoderTests {
  /// The fast reader gives exactly what the general path gives, for every
  /// operation and awkward paths and values.
  @Test func matchesTheGeneralPath() throws {
    let patches: [JSONValue] = [
      .array([]),
      .array([
        .object(["op": .string("add"), "path": .string("/a/-"), "value": .object(["x": .array([.null, .bool(true)])])]),
        .object(["op": .string("remove"), "path": .string("/a/0")]),
        .object(["op": .string("replace"), "path": .string(""), "value": .int(-5)]),
        .object(["op": .string("move"), "from": .string("/a~1b"), "path": .string("/m~0n")]),
        .object(["op": .string("copy"), "from": .string("/x"), "path": .string("/y/0")]),
        .object(["op": .string("test"), "path": .string("/t"), "value": .string("é \"q\"\n")]),
        .object(["op": .string("replace"), "path": .string("/n"), "value": .double(0.1)]),
        .object(["op": .string("replace"), "path": .string("/n"), "value": .int(Int.max)]),
        .object(["op": .string("replace"), "path": .string("/n"), "value": .bool(false)]),
        .object(["op": .string("replace"), "path": .string("//"), "value": .null]),
      ]),
    ]
    var decoder = PatchDecoder()
    for patch in patches {
      let bytes = CanonicalJSON.encode(patch)
      let decoded = decoder.operations(bytes[...])
      let fast = try #require(decoded, "fell back on \(CanonicalJSON.text(patch))")
      #expect(fast == (try JSONPatch.operations(from: patch)))
      // Again, with the pointers now cached.
      let again = decoder.operations(bytes[...])
      #expect(again == fast)
    }
  }

  /// Anything outside the journal's form is left to the general path.
  @Test(arguments: [
    #"[ {"op":"remove","path":"/a"}]"#,
    #"[{"op":"remove","path":"/a\u0062"}]"#,
    #"[{"op":"remove","path":"/a","extra":1}]"#,
    #"[{"op":"frobnicate","path":"/a"}]"#,
    #"[{"op":"add","path":"/a"}]"#,
    #"[{"op":"remove","path":"a"}]"#,
    #"[{"op":"remove","path":"/a"},]"#,
    #"{"op":"remove"}"#,
    #"[{"op":"replace","path":"/a","value":01}]"#,
    #"[{"op":"remove","path":"/a","path":"/b"}]"#,
  ])
  func fallsBack(text: String) {
    var decoder = PatchDecoder()
    let decoded = decoder.operations(Array(text.utf8)[...])
    #expect(decoded == nil)
  }
}
