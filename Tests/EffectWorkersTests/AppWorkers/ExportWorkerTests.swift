import ComposableCore
import Foundation
import Glibc
import JSON
import TestSupport
import Testing
import Wire

/// The Todos example's `export` worker, a Python 3 script written from
/// docs/PROTOCOL.md alone, spoken to over its socket as the daemon speaks
/// to it.
@Suite(.ownThreads, .timeLimit(.minutes(2))) struct ExportWorkerTests {
  static let kind: WorkerKind = "export"

  /// The script, started with `arguments` (by default, `--directory` the
  /// test's directory) and `environment` besides the `PATH`.
  static func exporter(
    in directory: TemporaryDirectory, arguments: [String]? = nil, environment: [String] = []
  ) throws -> SpawnedWorker {
    _ = try ExampleWorkers.python3()
    return try SpawnedWorker(
      kind: kind, executable: ExampleWorkers.todosExport, arguments: arguments ?? ["--directory", directory.path],
      environment: ["PATH=\(ExampleWorkers.path)", "\(WorkerProtocol.kindVariable)=export"] + environment,
      in: directory)
  }

  static func request(file: JSONValue, todos: [(String, Bool)]) -> EffectRequest {
    .custom(
      kind: kind,
      payload: .object([
        "file": file,
        "todos": .array(todos.map { .object(["title": .string($0.0), "isComplete": .bool($0.1)]) }),
      ]))
  }

  @Test func itSaysReadyForItsKindAndAnswersPings() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    #expect(worker.ready == .ready(kind: "export", pid: worker.pid, protocol: WorkerProtocol.version))
    #expect(try worker.eventsBeforePong(41) == [])
    #expect(try worker.eventsBeforePong(42) == [])
  }

  @Test func aRequestWritesTheFileAtomicallyAndTheAnswerSaysWhatItWrote() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    try "old".write(toFile: directory.appending("todos.md"), atomically: false, encoding: .utf8)
    let reply = try worker.perform(
      Self.request(file: .string("todos.md"), todos: [("Milk", true), ("Eggs", false)]), id: 7)
    let path = directory.appending("todos.md")
    #expect(reply == .custom(.object(["path": .string(path), "count": .int(2), "bytes": .int(22)])))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "- [x] Milk\n- [ ] Eggs\n")
    // Nothing but the file, and the worker's log: no temporary left behind.
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { !$0.hasSuffix(".log") }
    #expect(names == ["todos.md"])
  }

  @Test func withoutArgumentsItWritesInTheDirectoryTheDaemonGivesIt() throws {
    let directory = try TemporaryDirectory()
    let own = directory.appending("own")
    #expect(mkdir(own, 0o700) == 0)
    let worker = try Self.exporter(
      in: directory, arguments: [], environment: ["\(WorkerProtocol.directoryVariable)=\(own)"])
    let reply = try worker.perform(Self.request(file: .string("a.md"), todos: []), id: 1)
    #expect(reply == .custom(.object(["path": .string(own + "/a.md"), "count": .int(0), "bytes": .int(0)])))
    #expect(FileManager.default.fileExists(atPath: own + "/a.md"))
  }

  /// A named store's export goes to `stores/STORE` in the directory, so
  /// that stores exporting the same file never overwrite each other's.
  @Test func aNamedStoresExportGoesToADirectoryOfItsOwn() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    let request = Self.request(file: .string("todos.md"), todos: [("Milk", false)])
    try worker.send(.start(id: 1, request: request, store: try StoreName("alice")))
    let path = directory.appending("stores/alice/todos.md")
    #expect(try worker.reply() == (1, .custom(.object(["path": .string(path), "count": .int(1), "bytes": .int(11)]))))
    let home = directory.appending("todos.md")
    #expect(
      try worker.perform(Self.request(file: .string("todos.md"), todos: []), id: 2)
        == .custom(.object(["path": .string(home), "count": .int(0), "bytes": .int(0)])))
    #expect(try String(contentsOfFile: path, encoding: .utf8) == "- [ ] Milk\n")
    #expect(try String(contentsOfFile: home, encoding: .utf8) == "")
  }

  @Test(arguments: [
    (JSONValue.string("../escape.md"), "'file' must be a plain file name"),
    (.string(".hidden"), "'file' must be a plain file name"),
    (.string(""), "'file' must be a plain file name"),
    (.int(3), "'file' must be a plain file name"),
    (.string(String(repeating: "x", count: 300)), "'file' is longer than 255 bytes"),
  ])
  func aBadFileNameIsRefusedWithAClearMessage(_ file: JSONValue, _ expected: String) throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    let reply = try worker.perform(Self.request(file: file, todos: [("Milk", false)]), id: 3)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(failure.message.contains(expected), "\(failure.message)")
    #expect(!FileManager.default.fileExists(atPath: directory.path + "/../escape.md"))
  }

  @Test func badTodosAreRefusedNamingTheOneThatIsWrong() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    let todos: JSONValue = .array([
      .object(["title": .string("Milk"), "isComplete": .bool(true)]), .object(["title": .string("Eggs")]),
    ])
    let reply = try worker.perform(
      .custom(kind: Self.kind, payload: .object(["file": .string("a.md"), "todos": todos])), id: 4)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(
      failure.message.contains("todos[1] must be {\"title\": string, \"isComplete\": bool}"), "\(failure.message)")
    let notAnObject = try worker.perform(.custom(kind: Self.kind, payload: .array([])), id: 5)
    #expect(
      notAnObject
        == .failure(EffectFailure(.invalidRequest, "the request must be an object with 'file' and 'todos'")))
  }

  @Test func aDirectoryItCannotWriteInFailsAsStorage() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory, arguments: ["--directory", directory.appending("missing")])
    let reply = try worker.perform(Self.request(file: .string("a.md"), todos: []), id: 6)
    guard case .failure(let failure) = reply else {
      Issue.record("expected a failure, got \(reply)")
      return
    }
    #expect(failure.kind == .storage)
    #expect(failure.message.contains("cannot write in \(directory.appending("missing"))"), "\(failure.message)")
  }

  /// A cancel comes after the answer, and is ignored; end of file ends the
  /// worker with status 0.
  @Test func aCancelIsIgnoredAndEndOfFileEndsItWithStatusZero() throws {
    let directory = try TemporaryDirectory()
    let worker = try Self.exporter(in: directory)
    _ = try worker.perform(Self.request(file: .string("a.md"), todos: [("Milk", false)]), id: 8)
    try worker.send(.cancel(id: 8))
    #expect(try worker.eventsBeforePong(9) == [])
    worker.closeSocket()
    #expect(worker.waitForExit(timeout: .seconds(60)) == .exited(0), "log:\n\(worker.log)")
  }
}
