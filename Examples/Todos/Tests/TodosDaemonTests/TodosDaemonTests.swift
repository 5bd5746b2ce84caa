import ComposableTesting
import Foundation
import JSON
import Testing
import Todos

/// `todosd` end to end: the Todos list hosted by storedaemon's library, its
/// sort on the built-in timer worker, its export on the app's own Python
/// worker, driven with `tcactl` as a person would.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct TodosDaemonTests {
  /// The id of the row at `index` of the list.
  private func rowID(_ daemon: TodosDaemon, _ index: Int) throws -> String {
    guard case .array(let rows)? = try daemon.state()[path: "todos"], rows.count > index,
      case .string(let id)? = rows[index][path: "id"]
    else { throw MissingRow(index: index) }
    return id
  }

  @Test func theListIsServedJournaledAndRecovered() throws {
    let daemon = try TodosDaemon()
    try daemon.start()
    try daemon.send("addTodoButtonTapped")
    try daemon.send("addTodoButtonTapped")
    let eggs = try rowID(daemon, 0)
    let milk = try rowID(daemon, 1)
    try daemon.send("todos[\(milk)].binding.title", "Milk")
    try daemon.send("todos[\(eggs)].binding.title", "Eggs")
    // Checking the top row moves it down one second later, through the timer worker.
    try daemon.send("todos[\(eggs)].checkBoxToggled", wait: true)
    #expect(try rowID(daemon, 0) == milk)
    #expect(try daemon.state("todos.1.isComplete") == .bool(true))
    try daemon.send("filterPicked", "completed")
    #expect(try daemon.state("filter") == .string("completed"))

    // The log holds every action, and an old version can be read back.
    let log = try daemon.tcactl(["log"])
    #expect(log.status == 0)
    #expect(log.output.contains("checkBoxToggled") && log.output.contains("sortCompletedTodos"), "\(log.output)")
    guard case .array(let before)? = try daemon.state(at: 2)[path: "todos"] else {
      Issue.record("no list at version 2")
      return
    }
    #expect(before.count == 2)
    #expect(before.allSatisfy { $0[path: "title"] == .string("") })

    // A subscriber sees the next change live.
    let watch = Process()
    watch.executableURL = TodosDaemon.products.appendingPathComponent("tcactl")
    watch.arguments = ["--socket", daemon.socket, "watch", "--json"]
    let watched = daemon.directory.appendingPathComponent("watch.out")
    _ = FileManager.default.createFile(atPath: watched.path, contents: nil)
    watch.standardOutput = try FileHandle(forWritingTo: watched)
    try watch.run()
    defer { watch.terminate() }
    try waitUntil("watch shows the state") { (try? String(contentsOf: watched, encoding: .utf8))?.isEmpty == false }
    try daemon.send("filterPicked", "active")
    try waitUntil("watch shows filterPicked active") {
      (try? String(contentsOf: watched, encoding: .utf8))?.contains("filterPicked active") == true
    }

    // A restart recovers the list and its version.
    let version = try daemon.status()[path: "version"]
    #expect(daemon.stop() == 0)
    try daemon.start()
    #expect(try daemon.status()[path: "version"] == version)
    #expect(try daemon.state("filter") == .string("active"))
    #expect(try rowID(daemon, 1) == eggs)
    #expect(daemon.stop() == 0)
    // The daemon's log lines name it, not storedaemon.
    let lines = try String(contentsOf: daemon.log, encoding: .utf8)
    #expect(lines.contains("todosd: stopped"), "\(lines)")
    #expect(!lines.contains("storedaemon:"), "\(lines)")
  }

  /// The journal todosd records is a regression test of the reducers: its
  /// log, and its state directory beside the live daemon, replay exactly,
  /// new row ids (drawn from `uuid`) and the timer's sort included; and
  /// `todosd verify` says the same.
  @Test func theRecordedJournalReplaysThroughTheReducers() throws {
    let daemon = try TodosDaemon()
    try daemon.start()
    try daemon.send("addTodoButtonTapped")
    try daemon.send("addTodoButtonTapped")
    try daemon.send("addTodoButtonTapped")
    let bread = try rowID(daemon, 0)
    let jam = try rowID(daemon, 1)
    try daemon.send("todos[\(bread)].binding.title", "Bread")
    try daemon.send("todos[\(jam)].binding.title", "Jam")
    try daemon.send("todos[\(bread)].checkBoxToggled", wait: true)
    try daemon.send("filterPicked", "active")
    try daemon.send("delete", jam)
    try daemon.send("clearCompletedButtonTapped")

    let log = try daemon.tcactl(["log", "--json", "-n", "1000"])
    #expect(log.status == 0)
    #expect(log.output.contains(#""inputs":{"uuid":["#), "row ids are recorded: \(log.output)")
    let file = daemon.directory.appendingPathComponent("session.jsonl").path
    try log.output.write(toFile: file, atomically: true, encoding: .utf8)
    assertReplays(logFile: file, reducer: Todos(), initialState: Todos.emptyList)
    assertReplays(stateDirectory: daemon.stateDirectory, reducer: Todos(), initialState: Todos.emptyList)

    let verify = try daemon.run("todosd", ["verify", "--state-dir", daemon.stateDirectory])
    #expect(verify.status == 0, "\(verify.output)")
    #expect(verify.output.contains("todosd 1.0.0: every version reproduced"), "\(verify.output)")
    #expect(daemon.stop() == 0)
  }

  @Test func theExportRunsOnThePythonWorkerWhichIsRestartedWhenKilled() throws {
    let daemon = try TodosDaemon()
    try daemon.start()
    try daemon.send("addTodoButtonTapped")
    let milk = try rowID(daemon, 0)
    try daemon.send("todos[\(milk)].binding.title", "Milk")
    try daemon.send("exportButtonTapped", wait: true)
    let exported = try daemon.state("export")
    let receipt = try #require(exported[path: "exported"], "\(exported)")
    guard case .string(let path)? = receipt[path: "path"] else {
      Issue.record("no path in \(receipt)")
      return
    }
    #expect(path == daemon.stateDirectory + "/workers/export/todos.md")
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "- [ ] Milk\n")
    #expect(receipt[path: "count"] == .int(1))

    // Killed while it holds a request: the request fails as an action, and
    // the worker is restarted.
    let worker = try #require(try daemon.exportWorker(), "status has no export worker")
    guard case .int(let pid)? = worker[path: "pid"] else {
      Issue.record("no pid in \(worker)")
      return
    }
    #expect(kill(pid_t(pid), SIGSTOP) == 0)
    try daemon.send("exportButtonTapped")
    #expect(try daemon.state("export") == .string("exporting"))
    try waitUntil("the stopped worker holds the request") {
      try daemon.exportWorker()?[path: "inFlight"] == .int(1)
    }
    #expect(kill(pid_t(pid), SIGKILL) == 0)
    try waitUntil("the export fails") { try daemon.state("export")[path: "failed"] != nil }
    guard case .string(let message)? = try daemon.state("export")[path: "failed"] else { return }
    #expect(message.hasPrefix("interrupted"), "\(message)")
    try waitUntil("the worker runs again") {
      let row = try daemon.exportWorker()
      return row?[path: "state"] == .string("running") && row?[path: "pid"] != .int(pid)
    }
    try daemon.send("exportButtonTapped", wait: true)
    #expect(try daemon.state("export")[path: "exported", "count"] == .int(1))
    #expect(daemon.stop() == 0)
  }
}

/// The list has no row at `index` with an id.
struct MissingRow: Error, CustomStringConvertible {
  let index: Int
  var description: String { "the list has no row at \(index)" }
}
