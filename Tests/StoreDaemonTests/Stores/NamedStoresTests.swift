import Dispatch
import Foundation
import JSON
import Platform
import TestSupport
import Testing
import Wire

/// Several stores in one daemon, named in each client's `hello`: each has
/// its own state, versions, epoch, journal and effects, is opened by its
/// first client and carries on across a restart (docs/PROTOCOL.md, "Stores").
@Suite(.ownThreads) struct NamedStoresTests {
  static func client(_ daemon: DaemonProcess, store: String?) throws -> WireClient {
    try WireClient(
      path: daemon.socketPath, clientName: "test", handshakeTimeout: eventTimeout, daemonUser: daemon.daemonUser,
      store: store.map { try StoreName($0) })
  }

  static func count(_ client: WireClient) throws -> JSONValue {
    try client.get(path: "/counter/count").value
  }

  @Test func eachStoreKeepsItsOwnStateVersionsEpochAndJournalAcrossARestart() throws {
    let first = try DaemonProcess()
    let sends = ["alice": 3, "bob": 1, "": 2]
    var epochs: [String: JSONValue] = [:]
    for (name, count) in sends {
      let client = try Self.client(first, store: name.isEmpty ? nil : name)
      for expected in 1...count {
        #expect(try client.send(path: "counter.incrementButtonTapped") == UInt64(expected))
      }
      #expect(try Self.count(client) == .int(count))
      epochs[name] = try client.status()[path: "epoch"]
    }
    #expect(Set(epochs.values).count == 3, "each store has an epoch of its own: \(epochs)")
    for name in ["alice", "bob"] {
      #expect(FileManager.default.fileExists(atPath: "\(first.stateDirectory)/stores/\(name)/journal"))
    }
    // The welcome names the store and gives its version.
    let raw = try RawConnection(first)
    try raw.send(#"{"type":"hello","protocol":1,"client":"raw","store":"alice"}"#)
    guard case .welcome(_, _, let version, let epoch, let store)? = try raw.read() else {
      Issue.record("expected welcome")
      return
    }
    #expect(version == 3 && store?.text == "alice" && .string(epoch) == epochs["alice"])
    #expect(first.stop() == 0)

    let second = try DaemonProcess(reusing: first)
    for (name, count) in sends {
      let client = try Self.client(second, store: name.isEmpty ? nil : name)
      #expect(try Self.count(client) == .int(count), "store '\(name)'")
      #expect(try client.status()[path: "epoch"] == epochs[name], "store '\(name)'")
      #expect(try client.send(path: "counter.incrementButtonTapped") == UInt64(count + 1), "store '\(name)'")
    }
  }

  /// Both stores' first effect is their request 1, in flight at once: each
  /// timer's firing and each search reach the store that asked.
  @Test func effectsOfStoresWhoseRequestsShareIdsComeBackToTheirOwnStore() throws {
    let api = try FakeSeedAPI()
    let daemon = try DaemonProcess(arguments: api.daemonArguments + ["--search-debounce", "0.3"])
    let alice = try Self.client(daemon, store: "alice")
    let bob = try Self.client(daemon, store: "bob")
    _ = try alice.send(path: "search.textChanged", arguments: ["cats"])
    _ = try bob.send(path: "search.textChanged", arguments: ["dogs"])
    _ = try api.waitForRequests(to: .gifSearch, count: 2, timeout: eventTimeout)
    try waitUntilNoEffectsInFlight(alice)
    try waitUntilNoEffectsInFlight(bob)
    let queries = api.requests(to: .gifSearch).compactMap { $0.query("q") }
    #expect(queries.sorted() == ["cats", "dogs"])
    #expect(try alice.get(path: "/search/query").value == .string("cats"))
    #expect(try bob.get(path: "/search/query").value == .string("dogs"))
    for client in [alice, bob] {
      guard case .array(let results) = try client.get(path: "/search/results").value else {
        Issue.record("no results")
        continue
      }
      #expect(!results.isEmpty)
    }
    // The default store saw none of it.
    let main = try Self.client(daemon, store: nil)
    #expect(try main.get(path: "/search/query").value == .string(""))
    #expect(try main.status()[path: "version"] == .int(0))
  }

  /// `stores` lists every store, open or closed, in name order after the
  /// default one, a page at a time: version, clients, bytes on disk and
  /// newest action; `tcactl stores` shows them, opening none.
  @Test func storesAreListedOpenAndClosedWithTheirNewestAction() throws {
    let daemon = try DaemonProcess(arguments: ["--store-idle-timeout", "0.2"])
    let main = try Self.client(daemon, store: nil)
    var alice: WireClient? = try Self.client(daemon, store: "alice")
    for _ in 1...3 { _ = try alice?.send(path: "counter.incrementButtonTapped") }
    alice = nil
    let bob = try Self.client(daemon, store: "bob")
    _ = try bob.send(path: "counter.decrementButtonTapped")
    try waitUntil("alice's store is closed") { try main.status()[path: "storesOpen"] == .int(2) }

    let page = try main.stores()
    #expect(!page.more)
    #expect(page.stores.map { $0.name?.text } == [nil, "alice", "bob"])
    let (home, closed, open) = (page.stores[0], page.stores[1], page.stores[2])
    #expect(home.isOpen && home.version == 0 && home.clients == 1 && home.lastAction == nil, "\(home)")
    #expect(!closed.isOpen && closed.version == 3 && closed.clients == 0 && closed.bytes > 0, "\(closed)")
    #expect(closed.lastAction?.version == 3 && closed.lastAction?.summary == "counter.incrementButtonTapped")
    #expect(open.isOpen && open.version == 1 && open.clients == 1, "\(open)")
    #expect(open.lastAction?.summary == "counter.decrementButtonTapped", "\(open)")

    // A page of one: the default store beside it, then one store a page.
    let first = try main.stores(limit: 1)
    #expect(first.more && first.stores.map { $0.name?.text } == [nil, "alice"])
    let second = try main.stores(after: try StoreName("alice"), limit: 1)
    #expect(!second.more && second.stores.map { $0.name?.text } == ["bob"])
    #expect(throws: ClientError.self) { try main.stores(limit: 0) }

    let listed = try tcactl(["stores"], socket: daemon.socketPath, environment: ["TCA_STORE": "carol"])
    #expect(listed.status == 0, "\(listed)")
    let lines = listed.output.split(separator: "\n").map(String.init)
    #expect(lines.count == 4 && lines[0].hasPrefix("STORE"), "\(listed.output)")
    #expect(lines[1].hasPrefix("(default)") && lines[2].hasPrefix("alice") && lines[3].hasPrefix("bob"))
    #expect(lines[2].contains(" no ") && lines[2].contains("counter.incrementButtonTapped"), "\(lines[2])")
    #expect(!FileManager.default.fileExists(atPath: "\(daemon.stateDirectory)/stores/carol"))
    let json = try tcactl(["stores", "--json"], socket: daemon.socketPath)
    let objects = try json.output.split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
    #expect(objects.map { $0[path: "name"] } == [.null, .string("alice"), .string("bob")], "\(json.output)")
    #expect(objects[1][path: "lastAction"]?[path: "summary"] == .string("counter.incrementButtonTapped"))
    let refused = try tcactl(["stores", "--store", "alice"], socket: daemon.socketPath)
    #expect(refused.status == 2 && refused.error.contains("--store"), "\(refused)")
  }

  /// Each store's storage effects keep its own documents: a BMI record
  /// saved in one store is listed there only, beside its journal
  /// (`stores/NAME/storage`), and the default store's stay where they were.
  @Test func eachStoresStorageKeepsItsOwnDocuments() throws {
    let daemon = try DaemonProcess()
    let alice = try Self.client(daemon, store: "alice")
    let bob = try Self.client(daemon, store: "bob")
    let main = try Self.client(daemon, store: nil)
    for (client, height) in [(alice, "180"), (main, "160")] {
      _ = try client.send(path: "bmi.input.binding.height", arguments: [height])
      _ = try client.send(path: "bmi.input.binding.weight", arguments: ["75"])
      _ = try client.sendAndWait(path: "bmi.input.saveButtonTapped", timeout: eventTimeout)
      #expect(try client.get(path: "/bmi/input/saveStatus").value[path: "saved"] != nil)
    }
    var heights: [String: [JSONValue]] = [:]
    for (name, client) in [("alice", alice), ("bob", bob), ("", main)] {
      _ = try client.sendAndWait(path: "bmi.history.onAppear", timeout: eventTimeout)
      guard case .array(let records) = try client.get(path: "/bmi/history/records").value else {
        Issue.record("no records in '\(name)'")
        continue
      }
      heights[name] = records.compactMap { $0[path: "height"] }
      #expect(try client.get(path: "/bmi/history/errorMessage").value == .null, "store '\(name)'")
    }
    #expect(heights["alice"]?.count == 1 && heights["bob"] == [] && heights[""]?.count == 1, "\(heights)")
    #expect(heights["alice"] != heights[""], "\(heights)")
    let files = FileManager.default
    #expect(
      try files.contentsOfDirectory(atPath: "\(daemon.stateDirectory)/stores/alice/storage/bmi-history").count == 1)
    #expect(!files.fileExists(atPath: "\(daemon.stateDirectory)/stores/bob/storage/bmi-history"))
    #expect(try files.contentsOfDirectory(atPath: "\(daemon.stateDirectory)/storage/bmi-history").count == 1)
  }

  @Test func aNameThatIsNoStoreNameIsRefusedAndOthersAreServedOn() throws {
    let daemon = try DaemonProcess()
    let alice = try Self.client(daemon, store: "alice")
    for name in ["", "../etc", "Alice", "a/b", "x.", String(repeating: "a", count: 65)] {
      let raw = try RawConnection(daemon)
      try raw.send(#"{"type":"hello","protocol":1,"client":"raw","store":"\#(name)"}"#)
      let said = try raw.readUntilClosed()
      guard case .error(nil, .invalidStore, let message)? = said.first else {
        Issue.record("'\(name)' must be refused with invalid_store: \(said)")
        continue
      }
      #expect(message.contains("is not a store name"), "\(message)")
    }
    #expect(try alice.send(path: "counter.incrementButtonTapped") == 1)
    #expect(!FileManager.default.fileExists(atPath: "\(daemon.stateDirectory)/stores/Alice"))
    let listed = try FileManager.default.contentsOfDirectory(atPath: "\(daemon.stateDirectory)/stores")
    #expect(listed == ["alice"])

    let usage = try tcactl(["get"], socket: daemon.socketPath, environment: ["TCA_STORE": "Alice"])
    #expect(usage.status == 2)
    #expect(usage.error.contains("TCA_STORE needs a store's name"), "\(usage.error)")
    let got = try tcactl(["get", "counter.count"], socket: daemon.socketPath, environment: ["TCA_STORE": "alice"])
    #expect(got.status == 0 && got.output == "1\n", "\(got)")
  }

  /// A backup taken while the daemon serves holds every store; `verify`
  /// checks each (or one, with `--store`); a restore brings each back, in
  /// a new epoch of its own, and refuses a directory that holds a store.
  @Test func backupVerifyAndRestoreCoverEveryStore() throws {
    let daemon = try DaemonProcess()
    let counts = ["alice": 2, "bob": 3, "": 1]
    var epochs: [String: JSONValue] = [:]
    for (name, count) in counts {
      let client = try Self.client(daemon, store: name.isEmpty ? nil : name)
      for _ in 0..<count { _ = try client.send(path: "counter.incrementButtonTapped") }
      epochs[name] = try client.status()[path: "epoch"]
    }
    let backup = daemon.directory + "/backup"
    let taken = try runProduct("storedaemon", ["backup", backup, "--state-dir", daemon.stateDirectory])
    #expect(taken.status == 0, "\(taken)")
    #expect(taken.output.contains("and 2 named stores"), "\(taken.output)")

    let verified = try runProduct("storedaemon", ["verify", "--state-dir", backup])
    #expect(verified.status == 0, "\(verified)")
    for name in ["alice", "bob"] {
      #expect(verified.output.contains("\(backup)/stores/\(name) ("), "\(verified.output)")
    }
    let one = try runProduct("storedaemon", ["verify", "--state-dir", backup, "--store", "bob"])
    #expect(one.status == 0 && one.output.split(separator: "\n").count == 1, "\(one)")
    #expect(one.output.contains("versions 1…3"), "\(one.output)")
    let missing = try runProduct("storedaemon", ["verify", "--state-dir", backup, "--store", "carol"])
    #expect(missing.status == 65 && missing.error.contains("holds no such store"), "\(missing)")
    #expect(try runProduct("storedaemon", ["verify", "--store", "Carol"]).status == 64)

    // A restore that fails midway (a file where a store's directory goes)
    // takes away what it wrote: run again once the file is gone, it works.
    let target = daemon.directory + "/restored"
    try FileManager.default.createDirectory(atPath: target + "/stores", withIntermediateDirectories: true)
    _ = FileManager.default.createFile(atPath: target + "/stores/alice", contents: Data("in the way".utf8))
    let failed = try runProduct("storedaemon", ["restore", backup, "--state-dir", target])
    #expect(failed.status == 74, "\(failed)")
    #expect(!FileManager.default.fileExists(atPath: target + "/journal"), "the default store's journal is taken away")
    #expect(try FileManager.default.contentsOfDirectory(atPath: target + "/stores") == ["alice"])
    try FileManager.default.removeItem(atPath: target + "/stores/alice")
    let restored = try runProduct("storedaemon", ["restore", backup, "--state-dir", target])
    #expect(restored.status == 0, "\(restored)")
    #expect(restored.output.contains("restored the store 'alice' to version 2"), "\(restored.output)")
    #expect(daemon.stop() == 0)
    let again = try DaemonProcess(copyingState: target)
    for (name, count) in counts {
      let client = try Self.client(again, store: name.isEmpty ? nil : name)
      #expect(try Self.count(client) == .int(count), "store '\(name)'")
      #expect(try client.status()[path: "epoch"] != epochs[name], "store '\(name)' begins a new epoch")
      #expect(try client.send(path: "counter.incrementButtonTapped") == UInt64(count + 1), "store '\(name)'")
    }
    #expect(again.stop() == 0)

    // A state directory that holds a store is not restored into.
    let crowded = daemon.directory + "/crowded"
    try FileManager.default.createDirectory(
      atPath: crowded + "/stores/alice/journal", withIntermediateDirectories: true)
    let refused = try runProduct("storedaemon", ["restore", backup, "--state-dir", crowded])
    #expect(refused.status == 73 && refused.error.contains("already holds the store 'alice'"), "\(refused)")
    #expect(!FileManager.default.fileExists(atPath: crowded + "/journal"))
  }

  /// At `--max-stores`, a hello naming another store closes the open one
  /// idle longest; while every open one is in use (a client each) it is
  /// refused with the reason, and the open ones and the default store
  /// serve on.
  @Test func storesPastTheLimitCloseTheIdleOneOrAreRefused() throws {
    let daemon = try DaemonProcess(arguments: ["--max-stores", "2"])
    var alice: WireClient? = try Self.client(daemon, store: "alice")
    let bob = try Self.client(daemon, store: "bob")
    #expect(try alice?.send(path: "counter.incrementButtonTapped") == 1)
    do {
      _ = try Self.client(daemon, store: "carol")
      Issue.record("a third named store must be refused while both open ones have a client")
    } catch ClientError.rejected(let code, let message) {
      #expect(code == .invalidStore)
      #expect(message.contains("--max-stores 2") && message.contains("in use"), "\(message)")
    }
    #expect(!FileManager.default.fileExists(atPath: "\(daemon.stateDirectory)/stores/carol"))
    #expect(try bob.send(path: "counter.incrementButtonTapped") == 1)
    #expect(try Self.client(daemon, store: nil).send(path: "counter.incrementButtonTapped") == 1)

    // Alice's client leaves: her store is idle, and carol's takes its place.
    alice = nil
    let main = try Self.client(daemon, store: nil)
    var carol: WireClient?
    try waitUntil("carol's store opens in place of alice's") {
      do {
        carol = try Self.client(daemon, store: "carol")
        return true
      } catch ClientError.rejected(.invalidStore, _) {
        return false
      }
    }
    #expect(try carol?.send(path: "counter.incrementButtonTapped") == 1)
    #expect(try main.status()[path: "storesOpen"] == .int(3))
    #expect(daemon.standardError.contains("closed the store 'alice' at version 1"), "\(daemon.standardError)")
    // Bob's and carol's have clients: alice's is refused now, as carol's was.
    #expect(throws: ClientError.self) { try Self.client(daemon, store: "alice") }
    carol = nil
    try waitUntil("alice's store opens again, as she left it") {
      guard let again = try? Self.client(daemon, store: "alice") else { return false }
      return try Self.count(again) == .int(1) && again.send(path: "counter.incrementButtonTapped") == 2
    }
    let usage = try runProduct("storedaemon", ["--max-stores", "many"])
    #expect(usage.status == 64 && usage.error.contains("--max-stores"), "\(usage)")
  }

  /// At `--max-stores`, the store closed for another is the one used least
  /// recently, however long the others have been open.
  @Test func theStoreUsedLeastRecentlyIsClosedForAnother() throws {
    let daemon = try DaemonProcess(arguments: ["--max-stores", "2"])
    let main = try Self.client(daemon, store: nil)
    func use(_ name: String) throws {
      do {
        let client = try Self.client(daemon, store: name)
        _ = try client.send(path: "counter.incrementButtonTapped")
      }
      try waitUntil("\(name)'s client has left") {
        try main.stores().stores.first { $0.name?.text == name }?.clients == 0
      }
    }
    try use("alice")
    try use("bob")
    try use("alice")
    try use("carol")
    #expect(daemon.standardError.contains("closed the store 'bob'"), "\(daemon.standardError)")
    #expect(!daemon.standardError.contains("closed the store 'alice'"), "\(daemon.standardError)")
    let open = try main.stores().stores.filter(\.isOpen).map { $0.name?.text }
    #expect(open == [nil, "alice", "carol"])
  }

  /// A named store with no client and no effect in flight for
  /// `--store-idle-timeout` is closed, its journal let go; its next client
  /// opens it again at its version, in its epoch. One whose effect is in
  /// flight stays open.
  @Test func anIdleStoreIsClosedAndOpenedAgainAsItWas() throws {
    let daemon = try DaemonProcess(arguments: ["--store-idle-timeout", "0.2", "--search-debounce", "3600"])
    let main = try Self.client(daemon, store: nil)
    var alice: WireClient? = try Self.client(daemon, store: "alice")
    var bob: WireClient? = try Self.client(daemon, store: "bob")
    for expected in 1...3 { #expect(try alice?.send(path: "counter.incrementButtonTapped") == UInt64(expected)) }
    let epoch = try alice?.status()[path: "epoch"]
    // Bob's search waits an hour for its debounce: an effect in flight.
    #expect(try bob?.send(path: "search.textChanged", arguments: ["cats"]) == 1)
    #expect(try bob?.status()[path: "effectsInFlight"] == .int(1))
    #expect(try main.status()[path: "storesOpen"] == .int(3))
    alice = nil
    bob = nil
    try waitUntil("alice's store is closed") { try main.status()[path: "storesOpen"] == .int(2) }
    #expect(daemon.standardError.contains("closed the store 'alice' at version 3"), "\(daemon.standardError)")
    let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/\(daemon.pid)/fd").compactMap {
      try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(daemon.pid)/fd/\($0)")
    }
    #expect(!descriptors.contains { $0.contains("/stores/alice/") }, "\(descriptors)")
    #expect(descriptors.contains { $0.contains("/stores/bob/") }, "\(descriptors)")

    let again = try Self.client(daemon, store: "alice")
    #expect(try Self.count(again) == .int(3))
    #expect(try again.status()[path: "epoch"] == epoch)
    #expect(try again.send(path: "counter.incrementButtonTapped") == 4)
    // Bob's store kept its effect, and its state.
    let bobAgain = try Self.client(daemon, store: "bob")
    #expect(try bobAgain.status()[path: "effectsInFlight"] == .int(1))
    #expect(try bobAgain.get(path: "/search/text").value == .string("cats"))
    #expect(!daemon.standardError.contains("closed the store 'bob'"))

    let usage = try runProduct("storedaemon", ["--store-idle-timeout", "soon"])
    #expect(usage.status == 64 && usage.error.contains("--store-idle-timeout"), "\(usage)")
  }

  /// A daemon of a release before stores ignores `store` in the hello and
  /// welcomes the client to its one store: the client refuses that welcome
  /// rather than act on the wrong store.
  @Test func aClientRefusesAWelcomeForAnotherStore() throws {
    let directory = try TemporaryDirectory(prefix: "old-daemon")
    let path = directory.appending("old.sock")
    let listener = try UnixSocket.listen(at: path, mode: 0o600)
    defer { listener.close() }
    let served = DispatchSemaphore(value: 0)
    DispatchQueue.global().async {
      defer { served.signal() }
      guard let connection = try? listener.accept() else { return }
      defer { connection.close() }
      var decoder = FrameDecoder()
      while (try? decoder.nextFrame()) == nil {
        guard let bytes = try? connection.read(timeout: eventTimeout), !bytes.isEmpty else { return }
        decoder.append(bytes)
      }
      try? connection.write(
        MessageCodec.frame(ServerMessage.welcome(protocol: 1, server: "storedaemon 0.1.0", version: 7, epoch: "old")))
      _ = try? connection.read(timeout: eventTimeout)
    }
    do {
      _ = try WireClient(path: path, clientName: "test", handshakeTimeout: eventTimeout, store: try StoreName("alice"))
      Issue.record("a welcome naming no store must be refused for the store 'alice'")
    } catch ClientError.rejected(let code, let message) {
      #expect(code == .invalidStore)
      #expect(message.contains("serves no named store"), "\(message)")
    }
    _ = served.wait(timeout: .now() + .seconds(60))
  }
}
