import Foundation
import JSON
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
}
