import Foundation
import Testing

/// The units' limits leave room for `--max-clients` clients: each costs the
/// daemon a file descriptor (one thread serves them all), and the daemon and
/// its workers need up to 256 threads and 512 more descriptors
/// (docs/OPERATIONS.md, section 3, "Limits").
@Suite struct UnitLimitsTests {
  @Test(arguments: ["system", "user"])
  func theLimitsAgreeWithMaxClients(kind: String) throws {
    let unit = try UnitFile(path: Installer.repository + "/systemd/\(kind)/daemon.service.in")
    let command = try #require(unit.execStart)
    let flag = try #require(command.firstIndex(of: "--max-clients"), "ExecStart must say --max-clients: \(command)")
    let clients = try #require(Int(command[flag + 1]))
    let tasks = try #require(unit["Service", "TasksMax"].flatMap { Int($0) }, "TasksMax= must be a number")
    #expect(tasks == 256)
    #expect(unit["Service", "LimitNOFILE"].flatMap { Int($0) } == clients + 512)
    if kind == "system" {
      #expect(unit["Service", "LimitNPROC"].flatMap { Int($0) } == tasks)
    }
  }
}
