import JSON
import Testing

@testable import Wire

/// The scanner reads a `send` exactly as the full parse does, or leaves it
/// to the full parse: for every payload, what it returns is nil or the
/// message `ClientMessage(json:)` reads from the parsed JSON.
@Suite struct SendScannerTests {
  /// What the full parse reads, as the daemon reads a frame: nil where it
  /// finds an error, or the send is larger than a send may be.
  private static func fullParse(_ text: String) -> ClientMessage? {
    let payload = Array(text.utf8)
    guard let json = try? MessageCodec.parse(payload, maximumDepth: ClientLimits.depth),
      let message = try? ClientMessage(json: json)
    else { return nil }
    if case .send = message, (try? ClientLimits.check(sendBytes: payload.count)) == nil { return nil }
    return message
  }

  /// What the scanner reads of `text`'s bytes.
  private static func scanned(_ text: String) -> ClientMessage? {
    var recentPath = ""
    return Array(text.utf8).withUnsafeBytes { SendScanner.send(from: $0, recentPath: &recentPath) }
  }

  @Test(arguments: [
    #"{"type":"send","id":1,"path":"counter.incrementButtonTapped","arguments":[]}"#,
    #"{"arguments":["3"],"id":12,"path":"cart.addItem","type":"send"}"#,
    #" { "type" : "send" ,"id": -7 , "path":"a.b", "arguments" : [ "x" , "y z" ] , "wait" : true } "#,
    #"{"type":"send","id":0,"path":"a","wait":false}"#,
    #"{"type":"send","id":9223372036854775807,"path":"a"}"#,
    #"{"type":"send","id":-9223372036854775808,"path":"a"}"#,
    "{\"type\":\"send\",\n\t\"id\":3,\r\n\"path\":\"a\"}",
  ])
  func readsWhatTheFullParseReads(_ text: String) throws {
    let scanned = try #require(Self.scanned(text))
    #expect(scanned == Self.fullParse(text))
  }

  /// Each of these is left to the full parse: it is not a send, or it has
  /// something the scanner does not read (the full parse may accept it, or
  /// say what is wrong with it).
  @Test(arguments: [
    #"{"type":"get","id":1,"path":""}"#,
    #"{"type":"send","id":1,"action":{"counter":"incrementButtonTapped"}}"#,
    #"{"type":"send","id":1,"path":"a\u002eb"}"#,
    #"{"type":"send","id":1,"path":"caf\#u{e9}"}"#,
    #"{"type":"send","id":1.0,"path":"a"}"#,
    #"{"type":"send","id":1e2,"path":"a"}"#,
    #"{"type":"send","id":01,"path":"a"}"#,
    #"{"type":"send","id":-0,"path":"a"}"#,
    #"{"type":"send","id":9223372036854775808,"path":"a"}"#,
    #"{"type":"send","id":1,"path":"a","path":"b"}"#,
    #"{"type":"send","id":1,"path":null}"#,
    #"{"type":"send","id":1,"path":"a","wait":null}"#,
    #"{"type":"send","id":1,"path":"a","arguments":[1]}"#,
    #"{"type":"send","id":1,"path":"a","arguments":[""# + String(repeating: "[", count: ClientLimits.depth + 1)
      + #""]}"#,
    #"{"type":"send","id":1,"path":""# + String(repeating: "a", count: ClientLimits.pathBytes + 1) + #""}"#,
    #"{"type":"send","id":1,"path":"a","extra":true}"#,
    #"{"type":"send","id":1,"path":"a"} x"#,
    #"{"type":"send","id":1,"path":"a",}"#,
    #"{"type":"send","path":"a"}"#,
    #"{"type":"send","id":1}"#,
    #"{"type":"send","id":1,"path":"a""#,
    #"[]"#,
    "",
  ])
  func leavesTheRestToTheFullParse(_ text: String) {
    #expect(Self.scanned(text) == nil)
  }

  /// A path with each byte value at each place of an eight-byte step: the
  /// scanner reads it only where the full parse reads the same.
  /// One recent path is kept across them all, so each is also read where
  /// the path read before it differs from it in one byte.
  @Test func everyByteInAPathAtEveryOffset() {
    var recentPath = ""
    for byte in UInt8.min...UInt8.max {
      for offset in 0..<17 {
        var path = Array(repeating: UInt8(ascii: "a"), count: 20)
        path[offset] = byte
        let payload = Array(#"{"type":"send","id":1,"path":""#.utf8) + path + Array(#""}"#.utf8)
        let scanned = payload.withUnsafeBytes { SendScanner.send(from: $0, recentPath: &recentPath) }
        let plain = byte >= 0x20 && byte < 0x7F && byte != UInt8(ascii: "\\") && byte != UInt8(ascii: "\"")
        #expect((scanned != nil) == plain, "byte \(byte) at \(offset)")
        if let scanned {
          #expect(scanned == Self.fullParse(String(decoding: payload, as: UTF8.self)), "byte \(byte) at \(offset)")
        }
      }
    }
  }

  /// A path read again is the recent path itself; another path, of the
  /// same length or not, is read as written and becomes the recent one.
  @Test func aRepeatedPathIsTheRecentOne() throws {
    var recentPath = ""
    func path(_ text: String) throws -> String {
      let message = Array(text.utf8).withUnsafeBytes { SendScanner.send(from: $0, recentPath: &recentPath) }
      guard case .send(_, .path(let path, _), _) = try #require(message) else {
        Issue.record("not a send by path: \(text)")
        return ""
      }
      return path
    }
    let sends = [
      "counter.incrementButtonTapped", "counter.incrementButtonTapped", "counter.decrementButtonTapped",
      "counter.decrementButtonTapped", "cart.addItem", "cart.addItemX", "cart.addItem",
    ]
    for (index, sent) in sends.enumerated() {
      let read = try path(#"{"type":"send","id":\#(index),"path":"\#(sent)"}"#)
      #expect(read == sent)
      #expect(recentPath == sent)
    }
    let first = try path(#"{"type":"send","id":1,"path":"counter.incrementButtonTapped"}"#)
    let again = try path(#"{"type":"send","id":2,"path":"counter.incrementButtonTapped"}"#)
    // The same storage: the second read made no string of its own.
    let firstBase = first.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
    let againBase = again.utf8.withContiguousStorageIfAvailable { $0.baseAddress }
    #expect(firstBase != nil && firstBase == againBase)
  }

  /// Many sends made by varying one another, member by member: whatever
  /// the scanner reads, the full parse reads the same.
  @Test func agreesWithTheFullParseOnVariations() {
    let members: [[String]] = [
      [#""type":"send""#, #""type":"get""#, #""type" : "send""#],
      [#""id":1"#, #""id":-42"#, #""id":"1""#, #""id":1.5"#, #""id":007"#],
      [#""path":"cart.addItem""#, #""path":"a\"b""#, #""path":"""#, #""path":3"#],
      [#""arguments":["3"]"#, #""arguments":[]"#, #""arguments":"3""#, #""arguments":["a","b","c"]"#, ""],
      [#""wait":true"#, #""wait":false"#, #""wait":"yes""#, ""],
    ]
    var checked = 0
    var scanned = 0
    func visit(_ index: Int, _ chosen: [String]) {
      guard index < members.count else {
        for order in [chosen, chosen.reversed()] {
          let text = "{" + order.filter { !$0.isEmpty }.joined(separator: ",") + "}"
          checked += 1
          if let message = Self.scanned(text) {
            scanned += 1
            #expect(message == Self.fullParse(text), "\(text)")
          }
        }
        return
      }
      for member in members[index] { visit(index + 1, chosen + [member]) }
    }
    visit(0, [])
    #expect(checked == 2 * 3 * 5 * 4 * 5 * 4)
    #expect(scanned > 0)
  }
}
