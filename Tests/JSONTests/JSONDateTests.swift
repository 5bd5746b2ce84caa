import FoundationEssentials
import JSON
import TestSupport
import Testing

/// Dates keep their milliseconds: the clock's date, its JSON and the date
/// read back from it are the same `Date`, bit for bit (docs/PROTOCOL.md,
/// "State as JSON").
@Suite(.ownThreads) struct JSONDateTests {
  /// The bits of `date`, which `==` on `Date` compares with a tolerance of none
  /// but which say so plainly in a failure.
  static func bits(_ date: Date) -> UInt64 { date.timeIntervalSinceReferenceDate.bitPattern }

  /// Milliseconds at the edges: 1970 and either side of it, a millisecond
  /// before a second ends, leap days (2000 is one, 1900 is not), before 1970
  /// and before 1582, the ends of the years the JSON holds, and today's.
  static let edges: [Int64] = [
    0, 1, -1, 999, -999, 1000, -1000, 59_999, 86_399_999, -86_400_000, -86_400_001,
    951_782_400_000,  // 2000-02-29
    951_868_799_999,  // 2000-02-29T23:59:59.999
    -2_203_891_200_000,  // 1900-03-01, the day after 1900-02-28
    1_709_164_800_123,  // 2024-02-29T00:00:00.123
    -12_219_292_800_001,  // the millisecond before 1582-10-15, the first Gregorian day
    -62_135_596_800_000,  // 0001-01-01
    JSONDate.representable.lowerBound, JSONDate.representable.upperBound,
    1_796_232_457_123, 1_796_232_457_999, 1_790_000_000_987,
  ]

  @Test(arguments: edges)
  func aClockDateRoundTripsBitForBit(milliseconds: Int64) throws {
    let date = JSONDate.date(milliseconds: milliseconds)
    #expect(JSONDate.milliseconds(of: date) == milliseconds)
    let text = try JSONDate.string(of: date)
    #expect(try JSONDate.milliseconds(parsing: text) == milliseconds, "\(text)")
    #expect(Self.bits(try JSONDate.date(parsing: text)) == Self.bits(date), "\(text)")
    // Through the encoder and the decoder, in a state.
    let decoded = try JSONValueDecoder.decode([Date].self, from: JSONValueEncoder.encode([date]))
    #expect(decoded.map(Self.bits) == [Self.bits(date)])
  }

  /// Across the whole range, at random, and the live clock's own dates.
  @Test func everyMillisecondRoundTrips() throws {
    var generator = SplitMix64(seed: 1970)
    let span = UInt64(JSONDate.representable.upperBound - JSONDate.representable.lowerBound + 1)
    var milliseconds = (0..<20_000).map { _ in
      JSONDate.representable.lowerBound + Int64(generator.next() % span)
    }
    // Near today, where the clock's dates are.
    milliseconds += (0..<5_000).map { _ in 1_700_000_000_000 + Int64(generator.next() % 200_000_000_000) }
    for milliseconds in milliseconds {
      let date = JSONDate.date(milliseconds: milliseconds)
      let text = try JSONDate.string(of: date)
      guard try JSONDate.milliseconds(parsing: text) == milliseconds,
        Self.bits(try JSONDate.date(parsing: text)) == Self.bits(date)
      else {
        Issue.record("\(milliseconds) ms is written \(text), which reads back as another date")
        return
      }
    }
  }

  @Test(arguments: [
    (Int64(0), "1970-01-01T00:00:00.000Z"),
    (-1, "1969-12-31T23:59:59.999Z"),
    (999, "1970-01-01T00:00:00.999Z"),
    (951_782_400_000, "2000-02-29T00:00:00.000Z"),
    (-2_203_891_200_000, "1900-03-01T00:00:00.000Z"),
    (1_709_164_800_123, "2024-02-29T00:00:00.123Z"),
    (-12_219_292_800_001, "1582-10-14T23:59:59.999Z"),
    (-62_135_596_800_000, "0001-01-01T00:00:00.000Z"),
    (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
    (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
    (1_796_232_457_123, "2026-12-02T17:27:37.123Z"),
    (1_790_000_000_987, "2026-09-21T14:13:20.987Z"),
  ])
  func writesThreeFractionalDigitsAlways(milliseconds: Int64, text: String) throws {
    #expect(try JSONDate.string(of: JSONDate.date(milliseconds: milliseconds)) == text)
    #expect(try JSONValueEncoder.encode(JSONDate.date(milliseconds: milliseconds)) == .string(text))
  }

  /// Whole seconds from 1583 on are the dates Foundation's ISO 8601 format
  /// writes (earlier builds wrote them so) and reads, with `.000` added.
  @Test func wholeSecondsAgreeWithFoundation() throws {
    var generator = SplitMix64(seed: 8601)
    let first: Int64 = -12_212_553_600  // 1583-01-01, in seconds
    let last: Int64 = 253_402_300_799
    for _ in 0..<2_000 {
      let seconds = first + Int64(generator.next() % UInt64(last - first))
      let date = Date(timeIntervalSince1970: Double(seconds))
      let foundation = date.formatted(.iso8601)
      #expect(try JSONDate.string(of: date) == foundation.dropLast() + ".000Z")
      #expect(try JSONDate.date(parsing: foundation) == Date.ISO8601FormatStyle().parse(foundation))
    }
  }

  /// A date with a finer fraction rounds to the nearest millisecond, half
  /// a millisecond up to the later one, as a `Date` and as text alike.
  @Test func aFinerFractionRoundsToTheMillisecond() throws {
    let cases: [(Date, String)] = [
      (Date(timeIntervalSince1970: 1.0004), "1970-01-01T00:00:01.000Z"),
      (Date(timeIntervalSince1970: 1.0006), "1970-01-01T00:00:01.001Z"),
      // 62.5 ms and -62.5 ms after 2001 are exact binary fractions: a half.
      (Date(timeIntervalSinceReferenceDate: 0.0625), "2001-01-01T00:00:00.063Z"),
      (Date(timeIntervalSinceReferenceDate: -0.0625), "2000-12-31T23:59:59.938Z"),
      (Date(timeIntervalSince1970: 59.9999), "1970-01-01T00:01:00.000Z"),
    ]
    for (date, text) in cases {
      #expect(try JSONDate.string(of: date) == text)
      let rounded = try JSONValueDecoder.decode(Date.self, from: JSONValueEncoder.encode(date))
      #expect(try rounded == JSONDate.date(parsing: text), "the encoding of \(date) reads back as \(text)'s date")
    }
    let texts: [(String, String)] = [
      ("2001-01-01T00:00:00.0625Z", "2001-01-01T00:00:00.063Z"),
      ("2000-12-31T23:59:59.9375Z", "2000-12-31T23:59:59.938Z"),
      ("1969-12-31T23:59:59.9995Z", "1970-01-01T00:00:00.000Z"),
      ("2026-12-02T17:27:37.1234999Z", "2026-12-02T17:27:37.123Z"),
      ("2026-12-02T17:27:37.1Z", "2026-12-02T17:27:37.100Z"),
      ("2026-12-02T17:27:37.12Z", "2026-12-02T17:27:37.120Z"),
    ]
    for (given, written) in texts {
      #expect(try JSONDate.string(of: JSONDate.date(parsing: given)) == written, "\(given)")
    }
  }

  /// What earlier builds wrote, and offsets from UTC.
  @Test func readsWholeSecondsAndOffsets() throws {
    let expected = try JSONDate.date(parsing: "2026-12-02T17:27:37.000Z")
    for text in [
      "2026-12-02T17:27:37Z", "2026-12-02T18:27:37+01:00", "2026-12-02T12:27:37-0500", "2026-12-02T17:27:37-00:00",
    ] {
      #expect(try JSONDate.date(parsing: text) == expected, "\(text)")
    }
    #expect(
      try JSONValueDecoder.decode(Date.self, from: .string("2023-11-14T22:13:20Z")).timeIntervalSince1970
        == 1_700_000_000)
  }

  @Test(arguments: [
    ("", "expected YYYY-MM-DDTHH:MM:SS"),
    ("2026-12-02", "expected YYYY-MM-DDTHH:MM:SS"),
    ("2026-12-02T17:27:37", "and Z or an offset ±HH:MM"),
    ("2026-12-02 17:27:37Z", "expected YYYY-MM-DDTHH:MM:SS"),
    ("2026-12-02t17:27:37z", "expected YYYY-MM-DDTHH:MM:SS"),
    ("2026-12-02T17:27:37.Z", "expected digits after the '.' of the seconds"),
    ("2026-12-02T17:27:37Zjunk", "expected YYYY-MM-DDTHH:MM:SS"),
    ("2026-13-02T17:27:37Z", "month 13 is not 1 through 12"),
    ("2026-02-29T00:00:00Z", "day 29 is not in month 2 of 2026, which has 28 days"),
    ("1900-02-29T00:00:00Z", "day 29 is not in month 2 of 1900, which has 28 days"),
    ("2026-04-31T00:00:00Z", "day 31 is not in month 4 of 2026, which has 30 days"),
    ("2026-12-02T24:00:00Z", "the time of day is not 00:00:00 through 23:59:59"),
    ("2026-12-31T23:59:60Z", "the time of day is not 00:00:00 through 23:59:59"),
    ("2026-12-02T17:27:37+24:00", "the offset from UTC is not -23:59 through +23:59"),
    ("9999-12-31T23:59:59.9995Z", "outside the years 0000 through 9999"),
    ("0000-01-01T00:30:00+01:00", "outside the years 0000 through 9999"),
    ("-0001-01-01T00:00:00Z", "expected YYYY-MM-DDTHH:MM:SS"),
  ])
  func refusesWhatIsNotADateSayingWhatWasExpected(text: String, reason: String) {
    #expect {
      try JSONDate.milliseconds(parsing: text)
    } throws: { error in
      "\(error)".hasPrefix("'\(text)' is not a date: ") && "\(error)".contains(reason)
    }
    #expect {
      try JSONValueDecoder.decode([String: Date].self, from: .object(["when": .string(text)]))
    } throws: { error in
      guard case DecodingError.dataCorrupted(let context) = error else { return false }
      return context.codingPath.map(\.stringValue) == ["when"] && context.debugDescription.contains(reason)
    }
  }

  @Test func aDateOutsideTheYearsIsRefusedWhenEncoded() {
    for date in [
      Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -62_167_219_201),
      Date(timeIntervalSinceReferenceDate: .nan), Date(timeIntervalSinceReferenceDate: .infinity),
      Date(timeIntervalSinceReferenceDate: 1e300),
    ] {
      #expect(JSONDate.milliseconds(of: date) == nil)
      #expect(throws: EncodingError.self) { try JSONValueEncoder.encode(["when": date]) }
      #expect {
        try JSONDate.string(of: date)
      } throws: { error in
        "\(error)".contains("is outside the years 0000 through 9999 that a date's JSON holds")
      }
    }
    #expect(JSONDate.nearestMilliseconds(to: Date(timeIntervalSince1970: 1e13)) == JSONDate.representable.upperBound)
    #expect(JSONDate.nearestMilliseconds(to: Date(timeIntervalSince1970: -1e13)) == JSONDate.representable.lowerBound)
  }
}
