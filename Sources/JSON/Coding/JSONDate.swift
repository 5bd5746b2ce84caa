import FoundationEssentials

/// Dates as the product keeps them: whole milliseconds since 1970, written
/// in JSON as RFC 3339 text with three fractional digits,
/// `2026-12-02T17:27:37.123Z` (docs/PROTOCOL.md, "State as JSON").
///
/// One rule makes live, recovered and replayed states equal: the `date`
/// dependency gives dates at whole milliseconds, the journal records those
/// milliseconds, and the JSON of a date keeps them. Every side goes
/// through this type's two functions, ``milliseconds(of:)`` and
/// ``date(milliseconds:)``, so that a date the clock gave survives
/// encoding and decoding bit for bit: `date(milliseconds: m)` is the
/// `Date` nearest to `m` milliseconds, and `milliseconds(of:)` gives `m`
/// back from it. A date with a finer fraction (a computation's, a test's
/// constant) is rounded to the nearest millisecond, half a millisecond up
/// to the later one, whether it is a `Date` or text.
///
/// The text always has three fractional digits, `.000` included: one fixed
/// form for every date, so that the canonical JSON of a date is one string;
/// it is what JavaScript's `Date.prototype.toISOString()` writes, it shows
/// the precision kept, and its text sorts in time order. Reading accepts
/// what earlier builds wrote (`2026-12-02T17:27:37Z`), any number of
/// fractional digits, and an offset (`+01:00`, `-0500`) instead of `Z`.
/// Years run from 0000 through 9999 (RFC 3339's) in the proleptic Gregorian
/// calendar; a date outside them is refused both ways.
public enum JSONDate {
  /// The milliseconds since 1970 a date may have: 0000-01-01T00:00:00.000Z
  /// through 9999-12-31T23:59:59.999Z.
  public static let representable: ClosedRange<Int64> = -62_167_219_200_000...253_402_300_799_999

  /// The milliseconds from 1970 to 2001, `Date`'s reference date.
  private static let referenceOffset: Int64 = 978_307_200_000

  /// The date `milliseconds` after 1970 (before it, if negative): the
  /// `Date` nearest to it, as the `date` dependency gives it and as its JSON
  /// decodes. Built on `Date`'s own reference date, one rounding from the
  /// integer, so that ``milliseconds(of:)`` gives `milliseconds` back.
  public static func date(milliseconds: Int64) -> Date {
    let (sinceReference, overflow) = milliseconds.subtractingReportingOverflow(referenceOffset)
    let value = overflow ? Double(milliseconds) - Double(referenceOffset) : Double(sinceReference)
    return Date(timeIntervalSinceReferenceDate: value / 1000)
  }

  /// The whole milliseconds since 1970 nearest to `date` (half a
  /// millisecond rounds up, to the later one), or `nil` when that is
  /// outside ``representable``.
  public static func milliseconds(of date: Date) -> Int64? {
    let scaled = date.timeIntervalSinceReferenceDate * 1000
    guard scaled.isFinite else { return nil }
    let down = scaled.rounded(.down)
    let nearest = scaled - down >= 0.5 ? down + 1 : down
    guard let sinceReference = Int64(exactly: nearest) else { return nil }
    let (milliseconds, overflow) = sinceReference.addingReportingOverflow(referenceOffset)
    guard !overflow, representable.contains(milliseconds) else { return nil }
    return milliseconds
  }

  /// ``milliseconds(of:)``, or the nearest end of ``representable`` for a
  /// date outside it: for a clock, which must give a date.
  public static func nearestMilliseconds(to date: Date) -> Int64 {
    if let milliseconds = milliseconds(of: date) { return milliseconds }
    return date.timeIntervalSinceReferenceDate < 0 ? representable.lowerBound : representable.upperBound
  }

  /// The JSON text of `date`, rounded to the millisecond:
  /// `2026-12-02T17:27:37.123Z`.
  ///
  /// - Throws: ``JSONDateError`` for a date outside years 0000 through 9999.
  public static func string(of date: Date) throws(JSONDateError) -> String {
    guard let milliseconds = milliseconds(of: date) else {
      throw JSONDateError(
        "\(date.timeIntervalSince1970) seconds since 1970 is outside the years 0000 through 9999 that a date's "
          + "JSON holds")
    }
    return string(milliseconds: milliseconds)
  }

  /// The date `text` names, read as ``string(of:)`` writes it and as
  /// earlier builds wrote it (whole seconds), with any fraction and offset.
  ///
  /// - Throws: ``JSONDateError`` naming the text and what was expected.
  public static func date(parsing text: String) throws(JSONDateError) -> Date {
    date(milliseconds: try milliseconds(parsing: text))
  }

  /// The milliseconds since 1970 that `text` names (``date(parsing:)``).
  ///
  /// - Throws: ``JSONDateError`` naming the text and what was expected.
  public static func milliseconds(parsing text: String) throws(JSONDateError) -> Int64 {
    var text = text
    let result = text.withUTF8 { bytes -> Result<Int64, JSONDateError> in
      var reader = Reader(bytes: bytes)
      do throws(Reader.Failure) {
        return .success(try reader.read())
      } catch {
        return .failure(JSONDateError(error.message))
      }
    }
    switch result {
    case .success(let milliseconds): return milliseconds
    case .failure(let error):
      let shown = text.count > 40 ? "\(text.prefix(40))…" : text
      throw JSONDateError("'\(shown)' is not a date: \(error.description)")
    }
  }

  /// `milliseconds` (within ``representable``) as text: 24 bytes, written
  /// in place (a state's dates are encoded after every action that
  /// changes them).
  private static func string(milliseconds: Int64) -> String {
    let (days, inDay) = floorDivision(milliseconds, 86_400_000)
    let (year, month, day) = civil(days: days)
    return String(unsafeUninitializedCapacity: 24) { buffer in
      var end = 0
      func put(_ value: Int64, digits: Int, then separator: Unicode.Scalar) {
        var rest = value
        for position in stride(from: end + digits - 1, through: end, by: -1) {
          buffer[position] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest % 10)
          rest /= 10
        }
        buffer[end + digits] = UInt8(ascii: separator)
        end += digits + 1
      }
      put(year, digits: 4, then: "-")
      put(month, digits: 2, then: "-")
      put(day, digits: 2, then: "T")
      put(inDay / 3_600_000, digits: 2, then: ":")
      put(inDay / 60_000 % 60, digits: 2, then: ":")
      put(inDay / 1000 % 60, digits: 2, then: ".")
      put(inDay % 1000, digits: 3, then: "Z")
      return end
    }
  }

  /// `value / divisor` rounded down, and the remainder that goes with it
  /// (never negative), for a positive `divisor`.
  private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
    let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
    return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
  }

  /// The proleptic Gregorian date `days` after 1970-01-01 (Howard
  /// Hinnant's `civil_from_days`).
  private static func civil(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
    let shifted = days + 719_468
    let era = floorDivision(shifted, 146_097).quotient
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthFromMarch = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthFromMarch + 2) / 5 + 1
    let month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }

  /// The days from 1970-01-01 to the proleptic Gregorian date given
  /// (Howard Hinnant's `days_from_civil`).
  fileprivate static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
    let year = month <= 2 ? year - 1 : year
    let era = floorDivision(year, 400).quotient
    let yearOfEra = year - era * 400
    let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  /// The days of `month` in `year`.
  fileprivate static func daysIn(month: Int64, year: Int64) -> Int64 {
    switch month {
    case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
    case 4, 6, 9, 11: 30
    default: 31
    }
  }

  /// Reads `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM|±HHMM)`.
  private struct Reader {
    struct Failure: Error {
      let message: String
    }

    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    static let expected =
      "expected YYYY-MM-DDTHH:MM:SS, a fraction of a second if any, and Z or an offset ±HH:MM, "
      + "like 2026-12-02T17:27:37.123Z"

    mutating func read() throws(Failure) -> Int64 {
      let year = try number(digits: 4)
      try expect("-")
      let month = try number(digits: 2)
      try expect("-")
      let day = try number(digits: 2)
      try expect("T")
      let hour = try number(digits: 2)
      try expect(":")
      let minute = try number(digits: 2)
      try expect(":")
      let second = try number(digits: 2)
      var fraction: Int64 = 0
      if peek() == UInt8(ascii: ".") {
        position += 1
        fraction = try milliseconds()
      }
      let offset = try zoneOffset()
      guard position == bytes.count else { throw Failure(message: Self.expected) }
      guard (1...12).contains(month) else { throw Failure(message: "month \(month) is not 1 through 12") }
      let days = JSONDate.daysIn(month: month, year: year)
      guard (1...days).contains(day) else {
        throw Failure(message: "day \(day) is not in month \(month) of \(year), which has \(days) days")
      }
      guard hour < 24, minute < 60, second < 60 else {
        throw Failure(message: "the time of day is not 00:00:00 through 23:59:59")
      }
      let milliseconds =
        JSONDate.days(year: year, month: month, day: day) * 86_400_000 + hour * 3_600_000 + minute * 60_000
        + second * 1000 + fraction - offset
      guard JSONDate.representable.contains(milliseconds) else {
        throw Failure(message: "it is outside the years 0000 through 9999 in UTC")
      }
      return milliseconds
    }

    /// The fraction of a second, its first digit next, as milliseconds
    /// rounded to the nearest (a half rounds up; 1000 for .9995 and above).
    mutating func milliseconds() throws(Failure) -> Int64 {
      var value: Int64 = 0
      var count = 0
      while let digit = digit() {
        if count < 3 {
          value = value * 10 + digit
        } else if count == 3, digit >= 5 {
          value += 1
        }
        count += 1
      }
      guard count > 0 else { throw Failure(message: "expected digits after the '.' of the seconds") }
      for _ in count..<max(count, 3) { value *= 10 }
      return value
    }

    /// `Z`, or an offset from UTC as milliseconds to subtract.
    mutating func zoneOffset() throws(Failure) -> Int64 {
      guard let sign = peek() else { throw Failure(message: Self.expected) }
      position += 1
      switch sign {
      case UInt8(ascii: "Z"):
        return 0
      case UInt8(ascii: "+"), UInt8(ascii: "-"):
        let hours = try number(digits: 2)
        if peek() == UInt8(ascii: ":") { position += 1 }
        let minutes = try number(digits: 2)
        guard hours < 24, minutes < 60 else {
          throw Failure(message: "the offset from UTC is not -23:59 through +23:59")
        }
        let offset = (hours * 60 + minutes) * 60_000
        return sign == UInt8(ascii: "+") ? offset : -offset
      default:
        throw Failure(message: Self.expected)
      }
    }

    func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

    mutating func digit() -> Int64? {
      guard let byte = peek(), (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
      position += 1
      return Int64(byte - UInt8(ascii: "0"))
    }

    mutating func number(digits: Int) throws(Failure) -> Int64 {
      var value: Int64 = 0
      for _ in 0..<digits {
        guard let digit = digit() else { throw Failure(message: Self.expected) }
        value = value * 10 + digit
      }
      return value
    }

    mutating func expect(_ character: Unicode.Scalar) throws(Failure) {
      guard peek() == UInt8(ascii: character) else { throw Failure(message: Self.expected) }
      position += 1
    }
  }
}

/// A date that has no JSON, or text that is not a date's JSON
/// (``JSONDate``): the message names the value and what was expected.
public struct JSONDateError: Error, Sendable, Hashable, CustomStringConvertible {
  public let description: String
  public init(_ description: String) { self.description = description }
}
