import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Wire

/// The daemon's metrics as an operator's Prometheus sees them: a real
/// `prometheus` scrapes a real daemon under load over HTTP, and its queries
/// return what the clients did.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(5)))
struct PrometheusScrapeTests {
  @Test func aRealPrometheusScrapesTheDaemonUnderLoad() throws {
    let daemon = try DaemonProcess(arguments: ["--metrics", "127.0.0.1:0", "--fsync", "never"])
    let port = try metricsPort(of: daemon)
    // What a scrape answers passes Prometheus' own linter.
    let scrape = try RawHTTPClient(port: port)
    try scrape.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
    let page = try #require(try scrape.readResponse())
    #expect(page.status == 200)
    let lint = try Promtool.checkMetrics(page.text)
    #expect(lint.status == 0, "promtool check metrics: \(lint.output)")

    let prometheus = try PrometheusServer(scraping: ["127.0.0.1:\(port)"], job: "storedaemon")
    try waitUntil("Prometheus has scraped the daemon: \(prometheus.targets())") {
      try prometheus.query(#"up{job="storedaemon"}"#).first?.value == 1
    }
    // Load from a client of its own, until Prometheus sees a rate of
    // actions; then a known number of refusals.
    let sent = Atomic<Int>(0)
    let stop = Atomic<Bool>(false)
    let failure = Mutex<String?>(nil)
    let socketPath = daemon.socketPath
    let sender = Thread {
      do {
        let client = try WireClient(path: socketPath, clientName: "load", handshakeTimeout: eventTimeout)
        // Bursts with a pause between them: a steady load that leaves the
        // machine to the other tests running beside this one.
        while !stop.load(ordering: .acquiring) {
          for _ in 0..<20 {
            _ = try client.send(path: "counter.incrementButtonTapped")
            sent.add(1, ordering: .releasing)
          }
          usleep(20_000)
        }
      } catch {
        failure.withLock { $0 = "\(error)" }
      }
    }
    sender.start()
    let rate = #"rate(storedaemon_actions_total{case="counter.incrementButtonTapped",origin="client"}[1m])"#
    try waitUntil("Prometheus sees a rate of actions: \(prometheus.targets())") {
      try failure.withLock { $0 } == nil && (prometheus.query(rate).first?.value ?? 0) > 0
    }
    stop.store(true, ordering: .releasing)
    try waitUntil("the sender has stopped") { sender.isFinished }
    #expect(failure.withLock { $0 } == nil)
    let client = try WireClient(path: daemon.socketPath, clientName: "refused", handshakeTimeout: eventTimeout)
    for _ in 0..<3 { #expect(throws: ClientError.self) { _ = try client.send(path: "counter.noSuchButton") } }

    // Once Prometheus has scraped what the clients did, its figures are
    // exactly theirs.
    let total = sent.load(ordering: .acquiring)
    #expect(total > 0)
    try waitUntil("Prometheus has scraped all \(total) actions and 3 refusals") {
      let actions = try prometheus.query(#"sum(storedaemon_actions_total{origin="client"})"#).first?.value
      let refused = try prometheus.query(#"storedaemon_refusals_total{reason="invalid_action"}"#).first?.value
      return actions == Double(total) && refused == 3
    }
    #expect(try prometheus.query("storedaemon_version").first?.value == Double(total))
    #expect(try prometheus.query("storedaemon_clients").first?.value == 1)
    // Every version was written in some batch.
    #expect(try prometheus.query("storedaemon_batch_actions_sum").first?.value == Double(total))
    let median = try prometheus.query("histogram_quantile(0.5, sum by (le) (storedaemon_batch_actions_bucket))")
    #expect((median.first?.value ?? 0) > 0)
    let workers = try prometheus.query(#"sum(storedaemon_worker_state{state="running"})"#)
    #expect(workers.first?.value == 3)
  }

  /// The figures count every store's work, and a store closed when idle
  /// takes none of it back: its counts stay in the totals.
  @Test func theFiguresAddUpEveryStoreAndKeepAClosedOnesCounts() throws {
    let daemon = try DaemonProcess(arguments: ["--metrics", "127.0.0.1:0", "--store-idle-timeout", "0.2"])
    let port = try metricsPort(of: daemon)
    func scrape() throws -> String {
      let connection = try RawHTTPClient(port: port)
      try connection.send("GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n")
      return try #require(try connection.readResponse()).text
    }
    let main = try WireClient(path: daemon.socketPath, clientName: "main", handshakeTimeout: eventTimeout)
    var alice: WireClient? = try WireClient(
      path: daemon.socketPath, clientName: "alice", handshakeTimeout: eventTimeout, store: try StoreName("alice"))
    for _ in 0..<2 { _ = try alice?.send(path: "counter.incrementButtonTapped") }
    _ = try main.send(path: "counter.incrementButtonTapped")
    let actions = #"storedaemon_actions_total{case="counter.incrementButtonTapped",origin="client"} 3"#
    let open = try scrape()
    #expect(open.contains(actions), "\(open)")
    #expect(open.contains("storedaemon_clients 2\n") && open.contains("storedaemon_stores_open 2\n"), "\(open)")
    #expect(open.contains("storedaemon_batch_actions_sum 3\n"), "\(open)")

    alice = nil
    try waitUntil("alice's store is closed") { try main.status()[path: "storesOpen"] == .int(1) }
    let closed = try scrape()
    #expect(closed.contains(actions), "\(closed)")
    #expect(closed.contains("storedaemon_clients 1\n") && closed.contains("storedaemon_stores_open 1\n"), "\(closed)")
    #expect(closed.contains("storedaemon_batch_actions_sum 3\n"), "\(closed)")
    #expect(try Promtool.checkMetrics(closed).status == 0)
  }

  /// The port the daemon says its metrics listener took.
  private func metricsPort(of daemon: DaemonProcess) throws -> UInt16 {
    var port: UInt16?
    try waitUntil("the daemon logs where it serves its metrics") {
      let log = (try? String(contentsOfFile: daemon.directory + "/stderr.log", encoding: .utf8)) ?? ""
      guard let range = log.range(of: "serving metrics on http://127.0.0.1:") else { return false }
      port = UInt16(log[range.upperBound...].prefix { $0.isNumber })
      return port != nil
    }
    return try #require(port)
  }
}
