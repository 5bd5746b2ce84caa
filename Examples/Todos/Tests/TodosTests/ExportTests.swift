import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import Testing

@testable import Todos

/// The export of the list through the app's own `export` worker: the request
/// it sends, the answer and every failure as actions, and the recovery.
@Suite struct ExportTests {
  let rows: [Todo.State] = [
    Todo.State(id: UUID(counting: 0), title: "Milk"),
    Todo.State(id: UUID(counting: 1), title: "Eggs", isComplete: true),
  ]

  /// What the export worker is asked for ``rows``.
  var request: EffectRequest {
    .custom(
      kind: "export",
      payload: .object([
        "file": .string("todos.md"),
        "todos": .array([
          .object(["title": .string("Milk"), "isComplete": .bool(false)]),
          .object(["title": .string("Eggs"), "isComplete": .bool(true)]),
        ]),
      ]))
  }

  func makeStore(export: Export.Status = .idle) -> TestStore<Todos> {
    TestStore(
      initialState: Todos.State(todos: IdentifiedArrayOf(uniqueElements: rows), export: export), reducer: { Todos() })
  }

  @Test func theWorkersAnswerIsTheReceipt() {
    let store = makeStore()
    store.send(.exportButtonTapped) { $0.export = .exporting }
    store.expectInFlight([request])
    // A second tap while the file is written asks nothing more.
    store.send(.exportButtonTapped)
    let receipt = Export.Receipt(path: "/state/workers/export/todos.md", count: 2, bytes: 24)
    store.respond(
      to: request, with: .custom(.object(["path": .string(receipt.path), "count": .int(2), "bytes": .int(24)])))
    store.receive(.exportFinished(receipt)) { $0.export = .exported(receipt) }
  }

  @Test func aWorkerKilledWhileWritingFailsTheExport() {
    let store = makeStore()
    store.send(.exportButtonTapped) { $0.export = .exporting }
    let failure = EffectFailure(.interrupted, "the export worker ended before it answered")
    store.respond(to: request, with: .failure(failure))
    store.receive(.exportFailed(failure)) { $0.export = .failed(failure.description) }
  }

  @Test func anAnswerThatIsNotAReceiptFailsTheExport() {
    let store = makeStore()
    store.send(.exportButtonTapped) { $0.export = .exporting }
    store.respond(to: request, with: .custom(.string("done")))
    store.skipReceivedActions()
    guard case .failed(let message) = store.state.export else {
      Issue.record("the export did not fail: \(store.state.export)")
      return
    }
    #expect(message.hasPrefix("decoding:"), "\(message)")
  }

  /// An export lost with the daemon is asked again: the worker replaces the
  /// file atomically, so writing it twice is safe.
  @Test func recoveryExportsAgain() {
    let store = makeStore(export: .exporting)
    #expect(Todos().recoveryActions(for: store.state) == [.recovered])
    store.send(.recovered)
    store.expectInFlight([request])
    let receipt = Export.Receipt(path: "/state/workers/export/todos.md", count: 2, bytes: 24)
    store.respond(
      to: request, with: .custom(.object(["path": .string(receipt.path), "count": .int(2), "bytes": .int(24)])))
    store.receive(.exportFinished(receipt)) { $0.export = .exported(receipt) }
  }
}
