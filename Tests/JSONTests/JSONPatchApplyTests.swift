import FoundationEssentials
import JSON
import Testing

/// An RFC 6902 Appendix A example: a document, a patch, and the result or
/// the error.
struct PatchVector: Sendable, CustomTestStringConvertible {
  let name: String
  let document: String
  let patch: String
  let expected: Outcome

  enum Outcome: Sendable {
    case result(String)
    case error(String)
  }

  var testDescription: String { name }
}

let appendixA: [PatchVector] = [
  PatchVector(
    name: "A.1 adding an object member", document: #"{"foo": "bar"}"#,
    patch: #"[{ "op": "add", "path": "/baz", "value": "qux" }]"#,
    expected: .result(#"{"baz": "qux", "foo": "bar"}"#)),
  PatchVector(
    name: "A.2 adding an array element", document: #"{"foo": ["bar", "baz"]}"#,
    patch: #"[{ "op": "add", "path": "/foo/1", "value": "qux" }]"#,
    expected: .result(#"{"foo": ["bar", "qux", "baz"]}"#)),
  PatchVector(
    name: "A.3 removing an object member", document: #"{"baz": "qux", "foo": "bar"}"#,
    patch: #"[{ "op": "remove", "path": "/baz" }]"#, expected: .result(#"{"foo": "bar"}"#)),
  PatchVector(
    name: "A.4 removing an array element", document: #"{"foo": ["bar", "qux", "baz"]}"#,
    patch: #"[{ "op": "remove", "path": "/foo/1" }]"#, expected: .result(#"{"foo": ["bar", "baz"]}"#)),
  PatchVector(
    name: "A.5 replacing a value", document: #"{"baz": "qux", "foo": "bar"}"#,
    patch: #"[{ "op": "replace", "path": "/baz", "value": "boo" }]"#,
    expected: .result(#"{"baz": "boo", "foo": "bar"}"#)),
  PatchVector(
    name: "A.6 moving a value",
    document: #"{"foo": {"bar": "baz", "waldo": "fred"}, "qux": {"corge": "grault"}}"#,
    patch: #"[{ "op": "move", "from": "/foo/waldo", "path": "/qux/thud" }]"#,
    expected: .result(#"{"foo": {"bar": "baz"}, "qux": {"corge": "grault", "thud": "fred"}}"#)),
  PatchVector(
    name: "A.7 moving an array element", document: #"{"foo": ["all", "grass", "cows", "eat"]}"#,
    patch: #"[{ "op": "move", "from": "/foo/1", "path": "/foo/3" }]"#,
    expected: .result(#"{"foo": ["all", "cows", "eat", "grass"]}"#)),
  PatchVector(
    name: "A.8 testing a value: success", document: #"{"baz": "qux", "foo": ["a", 2, "c"]}"#,
    patch: #"[{ "op": "test", "path": "/baz", "value": "qux" }, { "op": "test", "path": "/foo/1", "value": 2 }]"#,
    expected: .result(#"{"baz": "qux", "foo": ["a", 2, "c"]}"#)),
  PatchVector(
    name: "A.9 testing a value: error", document: #"{"baz": "qux"}"#,
    patch: #"[{ "op": "test", "path": "/baz", "value": "bar" }]"#,
    expected: .error(#"operation 0 (test "/baz") failed: the value at "/baz" is "qux", expected "bar""#)),
  PatchVector(
    name: "A.10 adding a nested member object", document: #"{"foo": "bar"}"#,
    patch: #"[{ "op": "add", "path": "/child", "value": { "grandchild": { } } }]"#,
    expected: .result(#"{"foo": "bar", "child": {"grandchild": {}}}"#)),
  PatchVector(
    name: "A.11 ignoring unrecognized elements", document: #"{"foo": "bar"}"#,
    patch: #"[{ "op": "add", "path": "/baz", "value": "qux", "xyz": 123 }]"#,
    expected: .result(#"{"foo": "bar", "baz": "qux"}"#)),
  PatchVector(
    name: "A.12 adding to a nonexistent target", document: #"{"foo": "bar"}"#,
    patch: #"[{ "op": "add", "path": "/baz/bat", "value": "qux" }]"#,
    expected: .error(#"operation 0 (add "/baz/bat") failed: no member "baz" in the object at the document root"#)),
  PatchVector(
    name: "A.13 invalid JSON Patch document", document: #"{"foo": "bar"}"#,
    patch: #"[{ "op": "add", "path": "/baz", "value": "qux", "op": "remove" }]"#,
    expected: .error(#"duplicate member "op" at byte 48: each key may appear once in an object"#)),
  PatchVector(
    name: "A.14 ~ escape ordering", document: #"{"/": 9, "~1": 10}"#,
    patch: #"[{"op": "test", "path": "/~01", "value": 10}]"#, expected: .result(#"{"/": 9, "~1": 10}"#)),
  PatchVector(
    name: "A.15 comparing strings and numbers", document: #"{"/": 9, "~1": 10}"#,
    patch: #"[{"op": "test", "path": "/~01", "value": "10"}]"#,
    expected: .error(#"operation 0 (test "/~01") failed: the value at "/~01" is 10, expected "10""#)),
  PatchVector(
    name: "A.16 adding an array value", document: #"{"foo": ["bar"]}"#,
    patch: #"[{ "op": "add", "path": "/foo/-", "value": ["abc", "def"] }]"#,
    expected: .result(#"{"foo": ["bar", ["abc", "def"]]}"#)),
]

@Suite struct JSONPatchApplyTests {
  /// Each vector runs twice: the patch read with `JSONPatch.operations(from:)`
  /// after ``JSONParser``, and read with `JSONDecoder` (Codable).
  @Test(arguments: appendixA)
  func rfc6902AppendixA(_ vector: PatchVector) throws {
    let document = try json(vector.document)
    let operations: [PatchOperation]
    do {
      operations = try JSONPatch.operations(from: json(vector.patch))
    } catch let error as JSONParseError {
      guard case .error(let message) = vector.expected else { throw error }
      #expect(error.description == message)
      return
    }
    let decoded = try JSONDecoder().decode([PatchOperation].self, from: Data(vector.patch.utf8))
    #expect(decoded == operations)
    switch vector.expected {
    case .result(let expected):
      #expect(try JSONPatch.apply(operations, to: document) == json(expected))
    case .error(let message):
      #expect {
        try JSONPatch.apply(operations, to: document)
      } throws: { error in
        (error as? JSONPatchError)?.description == message
      }
    }
  }

  @Test func errorsNameTheOperationIndexAndPathAndLeaveTheInputAlone() throws {
    let document = try json(#"{"foo": ["a", "b"]}"#)
    let operations = try JSONPatch.operations(
      from: json(#"[{"op":"add","path":"/foo/-","value":"c"},{"op":"remove","path":"/foo/7"}]"#))
    #expect(throws: JSONPatchError.self) { try JSONPatch.apply(operations, to: document) }
    do {
      _ = try JSONPatch.apply(operations, to: document)
    } catch {
      #expect(error.index == 1)
      #expect(
        error.description
          == #"operation 1 (remove "/foo/7") failed: index 7 is out of range for the array of 3 elements at "/foo""#)
    }
    #expect(document == (try json(#"{"foo": ["a", "b"]}"#)))
  }

  @Test(arguments: [
    (
      #"{"a":{"b":1}}"#, #"[{"op":"move","from":"/a","path":"/a/c"}]"#,
      #"operation 0 (move from "/a" to "/a/c") failed: "/a" cannot be moved into its own descendant "/a/c""#
    ),
    (
      #"{"a":1}"#, #"[{"op":"remove","path":""}]"#,
      #"operation 0 (remove "") failed: the whole document cannot be removed; replace it instead"#
    ),
    (
      #"{"a":[1]}"#, #"[{"op":"remove","path":"/a/-"}]"#,
      #"operation 0 (remove "/a/-") failed: "-" (past the end) names no element of the array of 1 element at "/a"; it is allowed only as the target of add, move and copy"#
    ),
    (
      #"{"a":[1]}"#, #"[{"op":"add","path":"/a/2","value":0}]"#,
      #"operation 0 (add "/a/2") failed: index 2 is out of range for the array of 1 element at "/a""#
    ),
    (
      #"{"a":[1]}"#, #"[{"op":"replace","path":"/a/1","value":0}]"#,
      #"operation 0 (replace "/a/1") failed: index 1 is out of range for the array of 1 element at "/a""#
    ),
    (
      #"{"a":[1]}"#, #"[{"op":"add","path":"/a/01","value":0}]"#,
      #"operation 0 (add "/a/01") failed: "01" is not an index for the array of 1 element at "/a": use decimal digits without leading zeros"#
    ),
    (
      #"{"a":1}"#, #"[{"op":"add","path":"/a/b","value":0}]"#,
      #"operation 0 (add "/a/b") failed: "/a" is a number, not an object or array, so it has no member "b""#
    ),
    (
      #"{"a":1}"#, #"[{"op":"replace","path":"/b","value":0}]"#,
      #"operation 0 (replace "/b") failed: no member "b" in the object at the document root"#
    ),
    (
      #"{"a":1}"#, #"[{"op":"copy","from":"/b","path":"/c"}]"#,
      #"operation 0 (copy from "/b" to "/c") failed: no member "b" in the object at the document root"#
    ),
    (
      #"{"a":1}"#, #"[{"op":"move","from":"/b","path":"/b"}]"#,
      #"operation 0 (move from "/b" to "/b") failed: no member "b" in the object at the document root"#
    ),
  ])
  func failuresExplainThemselves(_ document: String, _ patch: String, _ message: String) throws {
    let operations = try JSONPatch.operations(from: json(patch))
    #expect {
      try JSONPatch.apply(operations, to: json(document))
    } throws: { error in
      (error as? JSONPatchError)?.description == message
    }
  }

  @Test func theOtherOperationsDoWhatTheRFCSays() throws {
    let document = try json(#"{"a":[1,2,3],"b":{"c":null}}"#)
    let cases: [(String, String)] = [
      (#"[{"op":"replace","path":"","value":[true]}]"#, "[true]"),
      (#"[{"op":"add","path":"","value":5}]"#, "5"),
      (#"[{"op":"add","path":"/a/3","value":4}]"#, #"{"a":[1,2,3,4],"b":{"c":null}}"#),
      (#"[{"op":"add","path":"/b/c","value":1}]"#, #"{"a":[1,2,3],"b":{"c":1}}"#),
      (#"[{"op":"copy","from":"/a","path":"/b/d"}]"#, #"{"a":[1,2,3],"b":{"c":null,"d":[1,2,3]}}"#),
      (#"[{"op":"move","from":"/a/0","path":"/a/-"}]"#, #"{"a":[2,3,1],"b":{"c":null}}"#),
      (#"[{"op":"move","from":"/a/2","path":"/a/0"}]"#, #"{"a":[3,1,2],"b":{"c":null}}"#),
      (#"[{"op":"move","from":"/b","path":"/b"}]"#, #"{"a":[1,2,3],"b":{"c":null}}"#),
      (#"[{"op":"move","from":"/b/c","path":"/c"}]"#, #"{"a":[1,2,3],"b":{},"c":null}"#),
      (#"[{"op":"test","path":"/a","value":[1,2.0,3e0]}]"#, #"{"a":[1,2,3],"b":{"c":null}}"#),
      (#"[{"op":"test","path":"/b/c","value":null}]"#, #"{"a":[1,2,3],"b":{"c":null}}"#),
    ]
    for (patch, expected) in cases {
      #expect(try JSONPatch.apply(JSONPatch.operations(from: json(patch)), to: document) == json(expected), "\(patch)")
    }
  }

  @Test func operationsCodeExactlyAsTheRFCWritesThem() throws {
    let operations: [PatchOperation] = [
      .add(path: try pointer("/a/0"), value: .null),
      .remove(path: try pointer("/a~1b")),
      .replace(path: .root, value: .object(["x": .double(1)])),
      .move(from: try pointer("/a/1"), path: try pointer("/a/0")),
      .copy(from: try pointer("/b"), path: try pointer("/c")),
      .test(path: try pointer("/d"), value: .array([])),
    ]
    let expected = #"""
      [{"op":"add","path":"/a/0","value":null},{"op":"remove","path":"/a~1b"},\#
      {"op":"replace","path":"","value":{"x":1.0}},{"from":"/a/1","op":"move","path":"/a/0"},\#
      {"from":"/b","op":"copy","path":"/c"},{"op":"test","path":"/d","value":[]}]
      """#
    #expect(canonical(operations) == expected)
    #expect(try CanonicalJSON.value(of: operations) == json(expected).replacingDoubles)
    #expect(try JSONPatch.operations(from: json(expected)) == operations)
    // JSONValue's Decodable reads 1.0 as an int (it tries Int before Double).
    #expect(
      try CanonicalJSON.decode([PatchOperation].self, from: json(expected))
        == JSONPatch.operations(from: json(expected).replacingDoubles))
    #expect(operations[3].description == #"{"from":"/a/1","op":"move","path":"/a/0"}"#)
  }

  @Test(arguments: [
    (
      #"[1]"#,
      #"operation 0 is malformed: an operation must be an object such as {"op":"add","path":"/a","value":1}, found a number"#
    ),
    (
      #"[{"path":"/a"}]"#, #"operation 0 is malformed: missing "op": expected add, remove, replace, move, copy or test"#
    ),
    (
      #"[{"op":"remove","path":"/a"},{"op":"delete","path":"/a"}]"#,
      #"operation 1 is malformed: unknown op "delete": expected add, remove, replace, move, copy or test"#
    ),
    (#"[{"op":"add","path":"/a"}]"#, #"operation 0 is malformed: missing "value" for "add""#),
    (#"[{"op":"move","path":"/a"}]"#, #"operation 0 is malformed: missing "from" for "move""#),
    (
      #"[{"op":"remove","path":3}]"#, #"operation 0 is malformed: "path" must be a JSON pointer string, found a number"#
    ),
    (
      #"[{"op":"remove","path":"a"}]"#,
      #"operation 0 is malformed: "path": JSON pointer "a" must be empty (the whole document) or start with '/': write "/a""#
    ),
    (
      #"{"op":"remove","path":"/a"}"#,
      #"operation 0 is malformed: a patch must be an array of operations, found an object"#
    ),
  ])
  func malformedOperationsAreNamed(_ patch: String, _ message: String) throws {
    #expect {
      try JSONPatch.operations(from: json(patch))
    } throws: { error in
      (error as? JSONPatchError)?.description == message
    }
  }
}

extension JSONValue {
  /// This value with integral doubles as ints: what `JSONEncoder` makes of them.
  var replacingDoubles: JSONValue {
    switch self {
    case .double(let double): Int(exactly: double).map(JSONValue.int) ?? self
    case .array(let elements): .array(elements.map(\.replacingDoubles))
    case .object(let members): .object(members.mapValues(\.replacingDoubles))
    default: self
    }
  }
}
