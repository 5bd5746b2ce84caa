import Platform
import Testing

/// What starts each program's lines.
@Suite struct LoggerTests {
  @Test func theDaemonNamesEveryLevelButInfo() {
    let log = Logger(name: "storedaemon", namesLevels: true)
    #expect(log.label(.info) == "storedaemon: ")
    #expect(log.label(.warning) == "storedaemon: warning: ")
    #expect(log.label(.error) == "storedaemon: error: ")
    #expect(log.label(.debug) == "storedaemon: debug: ")
  }

  @Test func aWorkerOnlyNamesItself() {
    let log = Logger(name: "effectworker[timer]", namesLevels: false)
    #expect(LogLevel.allCases.allSatisfy { log.label($0) == "effectworker[timer]: " })
  }
}
