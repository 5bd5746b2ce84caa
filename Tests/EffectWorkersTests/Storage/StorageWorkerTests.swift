import ComposableCore
import Foundation
import TestSupport
import Testing
import Wire

/// The storage worker as a real process on a real directory.
@Suite(.ownThreads) struct StorageWorkerTests {
  @Test func documentsPersistAcrossARestartOnTheSameDirectory() throws {
    let temporary = try TemporaryDirectory()
    let state = ["--state-dir", temporary.appending("state")]
    do {
      let first = try SpawnedWorker(.storage, arguments: state, in: temporary)
      #expect(
        try first.perform(.storage(.put(namespace: "bmi", key: "b", value: Data("two".utf8))), id: 1)
          == .storage(.stored))
      #expect(
        try first.perform(.storage(.put(namespace: "bmi", key: "a", value: Data("one".utf8))), id: 2)
          == .storage(.stored))
      #expect(
        try first.perform(.storage(.get(namespace: "bmi", key: "a")), id: 3)
          == .storage(.document(StorageDocument(key: "a", value: Data("one".utf8)))))
      first.closeSocket()
      #expect(first.waitForExit() == .exited(0))
    }
    let second = try SpawnedWorker(.storage, arguments: state, in: temporary)
    #expect(
      try second.perform(.storage(.list(namespace: "bmi")), id: 1)
        == .storage(
          .documents([
            StorageDocument(key: "a", value: Data("one".utf8)), StorageDocument(key: "b", value: Data("two".utf8)),
          ])))
    #expect(
      try second.perform(.storage(.delete(namespace: "bmi", key: "a")), id: 2) == .storage(.deleted(existed: true)))
    #expect(
      try second.perform(.storage(.delete(namespace: "bmi", key: "a")), id: 3) == .storage(.deleted(existed: false)))
    #expect(try second.perform(.storage(.get(namespace: "bmi", key: "a")), id: 4) == .storage(.document(nil)))
    #expect(try second.perform(.storage(.get(namespace: "other", key: "a")), id: 5) == .storage(.document(nil)))
    #expect(try second.perform(.storage(.list(namespace: "other")), id: 6) == .storage(.documents([])))
  }

  @Test func hostileNamesAreStoredSafelyInsideTheNamespace() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("state")
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", state], in: temporary)
    let keys = ["../x", "a/b", ".", "..", ".lock", ".tmp-abc", "/abs"]
    for (index, key) in keys.enumerated() {
      let reply = try worker.perform(
        .storage(.put(namespace: "ns", key: key, value: Data(key.utf8))), id: EffectID(index))
      #expect(reply == .storage(.stored), "\(key)")
    }
    #expect(try FileManager.default.contentsOfDirectory(atPath: state).sorted() == ["storage"])
    #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/storage").sorted() == [".lock", "ns"])
    let files = try FileManager.default.contentsOfDirectory(atPath: state + "/storage/ns")
    #expect(files.count == keys.count)
    #expect(files.allSatisfy { !$0.hasPrefix(".") })
    guard case .storage(.documents(let documents)) = try worker.perform(.storage(.list(namespace: "ns")), id: 100)
    else {
      Issue.record("list failed")
      return
    }
    #expect(documents.map(\.key) == keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) })
    #expect(documents.allSatisfy { $0.value == Data($0.key.utf8) })
  }

  @Test func staleTemporaryFilesAreRemovedAtStartup() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("state")
    try FileManager.default.createDirectory(atPath: state + "/storage/ns", withIntermediateDirectories: true)
    let stale = state + "/storage/ns/.tmp-q1W2e3"
    #expect(FileManager.default.createFile(atPath: stale, contents: Data("torn".utf8)))
    #expect(FileManager.default.createFile(atPath: state + "/storage/ns/doc", contents: Data("whole".utf8)))
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", state], in: temporary)
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(worker.log.contains("removed \(stale), left by a put that did not finish"))
    #expect(
      try worker.perform(.storage(.list(namespace: "ns")), id: 1)
        == .storage(.documents([StorageDocument(key: "doc", value: Data("whole".utf8))])))
  }

  /// A named store's documents are its own, beside its journal in
  /// `stores/NAME/storage`: another store, and the default one, see none
  /// of them. What a torn put left there is removed at the store's first
  /// request.
  @Test func eachStoreHasItsOwnDocuments() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("state")
    let (alice, bob) = (try StoreName("alice"), try StoreName("bob"))
    try FileManager.default.createDirectory(
      atPath: state + "/stores/alice/storage/ns", withIntermediateDirectories: true)
    let stale = state + "/stores/alice/storage/ns/.tmp-a1B2c3"
    #expect(FileManager.default.createFile(atPath: stale, contents: Data("torn".utf8)))
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", state], in: temporary)
    let document = StorageDocument(key: "k", value: Data("alice's".utf8))
    #expect(
      try worker.perform(.storage(.put(namespace: "ns", key: "k", value: document.value)), id: 1, store: alice)
        == .storage(.stored))
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(worker.log.contains("removed \(stale), left by a put that did not finish"))
    #expect(
      try worker.perform(.storage(.get(namespace: "ns", key: "k")), id: 2, store: alice)
        == .storage(.document(document)))
    #expect(
      try worker.perform(.storage(.get(namespace: "ns", key: "k")), id: 3, store: bob) == .storage(.document(nil)))
    #expect(try worker.perform(.storage(.list(namespace: "ns")), id: 4) == .storage(.documents([])))
    #expect(FileManager.default.fileExists(atPath: state + "/stores/alice/storage/ns/k"))
    #expect(!FileManager.default.fileExists(atPath: state + "/storage/ns/k"))
  }

  /// Requests take effect in arrival order: a get sent right after a put,
  /// without waiting for its reply, sees it.
  @Test func requestsTakeEffectInArrivalOrder() throws {
    let temporary = try TemporaryDirectory()
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", temporary.appending("state")], in: temporary)
    var commands: [WorkerCommand] = []
    for round in 0..<50 {
      let value = Data("version \(round)".utf8)
      commands.append(.start(id: EffectID(2 * round), request: .storage(.put(namespace: "n", key: "k", value: value))))
      commands.append(.start(id: EffectID(2 * round + 1), request: .storage(.get(namespace: "n", key: "k"))))
    }
    try worker.send(commands)
    for round in 0..<50 {
      let put = try worker.reply()
      #expect(put.id == EffectID(2 * round) && put.reply == .storage(.stored))
      let get = try worker.reply()
      #expect(get.id == EffectID(2 * round + 1))
      #expect(get.reply == .storage(.document(StorageDocument(key: "k", value: Data("version \(round)".utf8)))))
    }
  }

  @Test func invalidRequestsAreAnsweredAndTheWorkerCarriesOn() throws {
    let temporary = try TemporaryDirectory()
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", temporary.appending("state")], in: temporary)
    #expect(
      try worker.perform(.storage(.put(namespace: "", key: "k", value: Data())), id: 1)
        == .failure(EffectFailure(.invalidRequest, "put /k: the namespace is empty")))
    let oversized = try worker.perform(
      .storage(.put(namespace: "n", key: "k", value: Data(count: (16 << 20) + 1))), id: 2)
    #expect(
      oversized
        == .failure(
          EffectFailure(.invalidRequest, "put n/k: the document is 16777217 bytes, over the 16777216-byte limit")))
    #expect(
      try worker.perform(.timer(.after(.zero)), id: 3)
        == .failure(
          EffectFailure(
            .invalidRequest, "the storage worker does not carry out timer requests; they go to the timer worker")))
    #expect(try worker.perform(.storage(.put(namespace: "n", key: "k", value: Data())), id: 4) == .storage(.stored))
  }

  /// A request cancelled before the work thread reaches it is never carried out.
  @Test func aCancelledRequestIsNeitherAnsweredNorCarriedOut() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("state")
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", state], in: temporary)
    // Puts ahead of it keep the work thread busy (each one synced, twice)
    // while the cancel arrives right behind it. They are small, so that all
    // the commands go in one write that the socket takes at once, and the
    // worker reads the start and its cancel together: the cancel never
    // waits for the test to be scheduled again.
    let busy = 40
    var commands: [WorkerCommand] = (1...busy).map {
      .start(
        id: EffectID($0),
        request: .storage(.put(namespace: "n", key: "busy\($0)", value: Data(repeating: 1, count: 512))))
    }
    commands.append(.start(id: 100, request: .storage(.put(namespace: "n", key: "cancelled", value: Data("x".utf8)))))
    commands.append(.cancel(id: 100))
    try worker.send(commands + [.ping(id: 1)])
    var answered: [EffectID] = []
    var ponged = false
    while answered.count < busy || !ponged {
      switch try worker.next(timeout: .seconds(30)) {
      case .reply(let id, let reply):
        #expect(reply == .storage(.stored))
        answered.append(id)
      case .pong: ponged = true
      case let other: Issue.record("unexpected \(other)")
      }
    }
    #expect(answered == (1...busy).map { EffectID($0) })
    // Nothing for request 100, before or after.
    #expect(try worker.eventsBeforePong(2).isEmpty)
    #expect(try worker.perform(.storage(.get(namespace: "n", key: "cancelled")), id: 101) == .storage(.document(nil)))
  }
}
