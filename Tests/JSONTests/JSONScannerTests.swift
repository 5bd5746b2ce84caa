import JSON
import Testing

/// The scanner skips exactly one value, checking its syntax, and reads
/// integers and strings where they stand.
@Suite struct JSONScannerTests {
  /// `valueEnd` is just past the value, or nil when there is no valid one.
  @Test(arguments: [
    (#"{"a":[1,-2.5e3,"x\"y",true,null,{}]},9"#, 0, 36),
    (#"[1, 2] "#, 0, 6),
    (#"x:"é\u00e9""#, 2, 12),
    (#"-0.5e+2]"#, 0, 7),
    (#"[1,]"#, 0, nil),
    (#""a\qb""#, 0, nil),
    (#"tru"#, 0, nil),
    (#"01"#, 0, 1),
  ])
  func valueEnd(text: String, start: Int, end: Int?) {
    let bytes = Array(text.utf8)
    #expect(bytes.withUnsafeBytes { JSONScanner.valueEnd(in: $0, from: start) } == end, "\(text)")
  }

  /// Nesting deeper than the parser allows is refused.
  @Test func nestingIsLimited() {
    let deep = Array((String(repeating: "[", count: 513) + String(repeating: "]", count: 513)).utf8)
    #expect(deep.withUnsafeBytes { JSONScanner.valueEnd(in: $0, from: 0) } == nil)
    let allowed = Array((String(repeating: "[", count: 512) + String(repeating: "]", count: 512)).utf8)
    #expect(allowed.withUnsafeBytes { JSONScanner.valueEnd(in: $0, from: 0) } == allowed.count)
  }

  /// Strings come back as their bytes between the quotes; integers are read
  /// whole, and a fraction or exponent is refused where an integer must be.
  @Test func readsStringsAndIntegers() throws {
    let bytes = Array(#""k\n" -42 7 1.5"#.utf8)
    let (string, signed, unsigned, fraction) = bytes.withUnsafeBytes { buffer in
      var scanner = JSONScanner(buffer)
      let string = (try? scanner.skipString()).map { Array($0) }
      scanner.skipWhitespace()
      let signed = try? scanner.scanSigned()
      scanner.skipWhitespace()
      let unsigned = try? scanner.scanUnsigned()
      scanner.skipWhitespace()
      let fraction = Result { () throws(JSONScanner.Problem) in try scanner.scanUnsigned() }
      return (string, signed, unsigned, fraction)
    }
    #expect(string == Array(#"k\n"#.utf8))
    #expect(signed == -42)
    #expect(unsigned == 7)
    #expect(throws: JSONScanner.Problem.self) { try fraction.get() }
  }
}
