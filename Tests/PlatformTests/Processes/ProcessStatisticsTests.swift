import Glibc
import Testing

@testable import Platform

/// This process's figures as `/proc` gives them.
@Suite struct ProcessStatisticsTests {
  @Test func theFiguresOfThisProcessAreItsOwn() throws {
    let statistics = try #require(ProcessStatistics.current())
    #expect(statistics.residentBytes > 1 << 20)
    #expect(statistics.virtualBytes >= statistics.residentBytes)
    #expect(statistics.cpuSeconds >= 0)
    let descriptor = open("/dev/null", O_RDONLY)
    defer { close(descriptor) }
    let withOneMore = try #require(ProcessStatistics.current())
    #expect(withOneMore.openDescriptors >= 1)
    #expect(withOneMore.maxDescriptors >= withOneMore.openDescriptors)
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    #expect(statistics.startTime <= Double(now.tv_sec) + 1)
    #expect(statistics.startTime > Double(now.tv_sec) - 86_400)
  }

  /// The command's name may hold spaces and parentheses: fields are
  /// counted from the last `)`.
  @Test func fieldsAreCountedFromTheLastParenthesis() throws {
    let stat =
      "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 75 0 0 20 0 3 0 9000 123456789 512 18446744073709551615"
    let fields = try #require(ProcessStatistics.fields(ofStat: Array(stat.utf8)))
    #expect(fields.userTicks == 250)
    #expect(fields.systemTicks == 75)
    #expect(fields.startTicks == 9000)
    #expect(fields.virtualBytes == 123_456_789)
    #expect(fields.residentPages == 512)
    #expect(ProcessStatistics.fields(ofStat: Array("4242 (short) S 1".utf8)) == nil)
    #expect(ProcessStatistics.fields(ofStat: []) == nil)
  }
}
