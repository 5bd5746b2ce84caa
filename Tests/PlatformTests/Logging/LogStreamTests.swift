import Glibc
import Platform
import Testing

/// Log lines as journald and a terminal get them.
@Suite struct LogStreamTests {
  @Test func journaldLinesStartWithTheirPriority() {
    #expect(LogStream.line(.error, "storedaemon: error: x", journal: true) == "<3>storedaemon: error: x\n")
    #expect(LogStream.line(.warning, "w", journal: true) == "<4>w\n")
    #expect(LogStream.line(.info, "i", journal: true) == "<6>i\n")
    #expect(LogStream.line(.debug, "d", journal: true) == "<7>d\n")
    #expect(LogStream.line(.info, "plain", journal: false) == "plain\n")
  }

  @Test func aMessageIsAlwaysOneLine() {
    #expect(LogStream.line(.info, "two\nlines", journal: true) == "<6>two\\nlines\n")
  }

  @Test func levelsByNameAndOrder() {
    #expect(LogLevel.allCases.map(\.name) == ["error", "warning", "info", "debug"])
    #expect(LogLevel(name: "warning") == .warning)
    #expect(LogLevel(name: "notice") == nil)
    #expect(LogLevel.debug < LogLevel.info && LogLevel.info < LogLevel.error)
  }

  /// `$JOURNAL_STREAM` is `device:inode` of the stream; only the very file counts.
  @Test func theJournalStreamIsRecognisedByDeviceAndInode() throws {
    let path = "/tmp/logstream-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
    try #require(descriptor >= 0)
    defer {
      close(descriptor)
      unlink(path)
    }
    var info = stat()
    fstat(descriptor, &info)
    #expect(LogStream.isJournalStream("\(info.st_dev):\(info.st_ino)", descriptor: descriptor))
    #expect(!LogStream.isJournalStream("\(info.st_dev):\(info.st_ino + 1)", descriptor: descriptor))
    #expect(!LogStream.isJournalStream("garbage", descriptor: descriptor))
  }
}
