import Platform
import Testing

/// The command-line reader the executables share.
@Suite struct ArgumentParserTests {
  static let options: [ArgumentParser.Option] = [
    .init("--socket", value: "a path"), .init("--follow", "-f"), .init("-n", value: "a count"), .init("--help", "-h"),
  ]

  static func read(_ words: [String], shortOptionsArePositional: Bool = false) throws(UsageError)
    -> [ArgumentParser.Argument]
  {
    var parser = ArgumentParser(words, options: options)
    var arguments: [ArgumentParser.Argument] = []
    while let argument = try parser.next(shortOptionsArePositional: shortOptionsArePositional) {
      arguments.append(argument)
    }
    return arguments
  }

  @Test func aValueFollowsItsOptionOrIsJoinedWithAnEqualsSign() throws {
    #expect(try Self.read(["--socket", "/s"]) == [.option("--socket", value: "/s")])
    #expect(try Self.read(["--socket=/s"]) == [.option("--socket", value: "/s")])
    #expect(try Self.read(["--socket="]) == [.option("--socket", value: "")])
    #expect(try Self.read(["--socket", "--follow"]) == [.option("--socket", value: "--follow")])
    #expect(try Self.read(["-n", "3"]) == [.option("-n", value: "3")])
  }

  @Test func anOptionIsNamedByItsFirstSpellingAndMayBeRepeated() throws {
    #expect(
      try Self.read(["-f", "--follow", "-h"]) == [
        .option("--follow", value: nil), .option("--follow", value: nil), .option("--help", value: nil),
      ])
    #expect(
      try Self.read(["--socket", "/a", "--socket=/b"]) == [
        .option("--socket", value: "/a"), .option("--socket", value: "/b"),
      ])
  }

  @Test func positionalWordsComeAnywhereAndAllAfterTheDoubleDash() throws {
    #expect(
      try Self.read(["get", "-f", "cart", "-", "--", "--socket", "-n"])
        == [
          .positional("get"), .option("--follow", value: nil), .positional("cart"), .positional("-"),
          .positional("--socket"), .positional("-n"),
        ])
  }

  @Test func shortOptionsMayBeReadAsWords() throws {
    #expect(
      try Self.read(["-x", "-n", "--follow"], shortOptionsArePositional: true)
        == [.positional("-x"), .positional("-n"), .option("--follow", value: nil)])
  }

  @Test func anUnknownOptionIsReportedByItsNameForTheProgramToWord() throws {
    #expect(try Self.read(["--frobnicate=1", "-x"]) == [.unknownOption("--frobnicate"), .unknownOption("-x")])
  }

  @Test(arguments: [
    (["--socket"], "--socket needs a path"),
    (["-n"], "-n needs a count"),
    (["--follow=yes"], "--follow takes no value; got '--follow=yes'"),
  ])
  func mistakesSayWhatWasExpected(_ words: [String], _ message: String) {
    #expect {
      try Self.read(words)
    } throws: { error in
      "\(error)" == message
    }
  }

  /// After a mistake the parser has moved past it: a program may collect mistakes and read on.
  @Test func readingGoesOnAfterAMistake() throws {
    var parser = ArgumentParser(["--follow=1", "cart"], options: Self.options)
    #expect(throws: UsageError.self) { try parser.next() }
    #expect(try parser.next() == .positional("cart"))
    #expect(try parser.next() == nil)
  }

  @Test func anInvalidValueNamesTheOptionWhatItTakesAndWhatCame() {
    #expect(
      UsageError.invalidValue("x", for: "--max-clients", expected: "a number between 1 and 100000").description
        == "--max-clients takes a number between 1 and 100000, got 'x'")
  }
}
