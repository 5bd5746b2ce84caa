import Testing

@testable import Platform

/// journald's native protocol: fields as lines, a value with a line feed
/// in the binary form, and names journald would refuse left out.
@Suite struct JournalNativeTests {
  @Test func fieldsAreLinesAndAMultiLineValueIsSizedInBinary() throws {
    let datagram = JournalNative.datagram([
      ("MESSAGE", "two\nlines"), ("PRIORITY", "4"), ("STORE", "shop"), ("_PID", "1"), ("lower", "x"), ("VERSION", "42"),
    ])
    let expected: [UInt8] =
      Array("MESSAGE\n".utf8) + [9, 0, 0, 0, 0, 0, 0, 0]
      + Array("two\nlines\nPRIORITY=4\nSTORE=shop\nVERSION=42\n".utf8)
    #expect(datagram == expected)
    let read = try #require(JournalNative.fields(of: datagram))
    #expect(read.map(\.0) == ["MESSAGE", "PRIORITY", "STORE", "VERSION"])
    #expect(read.map(\.1) == ["two\nlines", "4", "shop", "42"])
  }

  @Test func fieldNamesAreJournaldsOwn() {
    #expect(JournalNative.isFieldName("CLIENT_PID"))
    #expect(!JournalNative.isFieldName("_TRUSTED"))
    #expect(!JournalNative.isFieldName("1ST"))
    #expect(!JournalNative.isFieldName("Mixed"))
    #expect(!JournalNative.isFieldName(""))
    #expect(!JournalNative.isFieldName(String(repeating: "A", count: 65)))
  }

  @Test func aTruncatedDatagramIsNotRead() {
    let datagram = JournalNative.datagram([("MESSAGE", "a\nb")])
    #expect(JournalNative.fields(of: Array(datagram.dropLast(3))) == nil)
  }
}
