import Testing

@testable import ComposableTesting

@Suite struct LineDiffTests {
  @Test func showsRemovedThenAddedLinesWithContext() {
    let rendered = LineDiff.render(expected: ["a", "b", "c"], actual: ["a", "B", "c"])
    #expect(rendered == "  a\n− b\n+ B\n  c")
  }

  @Test func foldsLongUnchangedRuns() {
    let expected = (0..<20).map(String.init)
    var actual = expected
    actual[10] = "ten"
    let rendered = LineDiff.render(expected: expected, actual: actual)
    #expect(rendered.contains("… (7 unchanged lines)"))
    #expect(rendered.contains("− 10\n+ ten"))
  }

  @Test func dumpsNestedValuesOneFieldPerLine() {
    struct Inner { var flag = true }
    struct Outer {
      var name = "x"
      var inner = Inner()
      var list = [1, 2]
      var missing: Int? = nil
      var present: Int? = 500
    }
    let lines = ValueDump.lines(Outer())
    #expect(lines.first?.hasSuffix("Outer(") == true)
    #expect(lines.contains("  name: \"x\","))
    #expect(lines.contains("    flag: true"))
    #expect(lines.contains("  missing: nil,"))
    #expect(lines.contains("  present: 500"))
  }
}
