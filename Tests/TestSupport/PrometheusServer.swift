import Foundation
import Glibc
import HTTP
import Platform

/// A real Prometheus server (Debian's `prometheus`, which .ci/run
/// installs) for a test: its own configuration, data and port in a
/// temporary directory, scraping the targets it was given every second,
/// and asked through its HTTP query API. Killed when the test is done.
public final class PrometheusServer {
  /// Where Debian installs it.
  public static let executable = "/usr/bin/prometheus"

  public let directory: TemporaryDirectory
  /// The port its web interface and API listen on.
  public let port: UInt16
  private let process = Process()

  /// Starts Prometheus scraping `targets` (`HOST:PORT` each) under the job
  /// `job`, and waits until it is ready.
  public init(scraping targets: [String], job: String, path: String = "/metrics") throws {
    guard access(Self.executable, X_OK) == 0 else {
      throw PrometheusServerError(
        description: "\(Self.executable) is missing: install Debian's prometheus package (.ci/run does)")
    }
    directory = try TemporaryDirectory(prefix: "prometheus-test")
    let quoted = targets.map { "'\($0)'" }.joined(separator: ", ")
    // A scrape may wait for a daemon busy with other work: its timeout is
    // the whole interval.
    let configuration = """
      global:
        scrape_interval: 1s
        scrape_timeout: 1s
      scrape_configs:
        - job_name: '\(job)'
          metrics_path: '\(path)'
          static_configs:
            - targets: [\(quoted)]

      """
    try configuration.write(toFile: directory.appending("prometheus.yml"), atomically: true, encoding: .utf8)
    port = try EtcdCluster.freePort()
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = [
      "--config.file=\(directory.appending("prometheus.yml"))",
      "--storage.tsdb.path=\(directory.appending("data"))",
      "--web.listen-address=127.0.0.1:\(port)", "--log.level=warn",
    ]
    let log = directory.appending("prometheus.log")
    _ = FileManager.default.createFile(atPath: log, contents: nil)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle(forWritingAtPath: log)
    try process.run()
    try waitUntilReady()
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGKILL)
      process.waitUntilExit()
    }
  }

  /// One sample of an instant query's answer: its labels and value.
  public struct Sample: Equatable {
    public var labels: [String: String]
    public var value: Double
  }

  /// The answer to the PromQL instant query `query`, evaluated now.
  public func query(_ query: String) throws -> [Sample] {
    let encoded = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? query
    let response = try get("/api/v1/query?query=\(encoded)")
    guard response.status == 200,
      let answer = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
      answer["status"] as? String == "success", let data = answer["data"] as? [String: Any],
      let result = data["result"] as? [[String: Any]]
    else {
      throw PrometheusServerError(
        description: "the query \(query) was answered with \(response.status): "
          + String(decoding: response.body, as: UTF8.self))
    }
    return result.compactMap { series in
      guard let labels = series["metric"] as? [String: String], let pair = series["value"] as? [Any],
        pair.count == 2, let text = pair[1] as? String, let value = Double(text)
      else { return nil }
      return Sample(labels: labels, value: value)
    }
  }

  /// What Prometheus says of its targets' last scrapes, one line each.
  public func targets() -> String {
    guard let response = try? get("/api/v1/targets") else { return "(no answer)" }
    return String(decoding: response.body, as: UTF8.self)
  }

  private func get(_ path: String) throws -> HTTPClientResponse {
    let client = try HTTPClientConnection(host: "127.0.0.1", port: port, timeout: .seconds(10))
    defer { client.close() }
    return try client.request("GET", path, until: .now + .seconds(30))
  }

  /// Waits (up to a minute) until `/-/ready` answers 200.
  private func waitUntilReady() throws {
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      guard process.isRunning else { break }
      if let response = try? get("/-/ready"), response.status == 200 { return }
      usleep(100_000)
    }
    let log = (try? String(contentsOfFile: directory.appending("prometheus.log"), encoding: .utf8)) ?? ""
    throw PrometheusServerError(description: "Prometheus was not ready within a minute:\n\(log)")
  }
}

public struct PrometheusServerError: Error, CustomStringConvertible {
  public let description: String
}
