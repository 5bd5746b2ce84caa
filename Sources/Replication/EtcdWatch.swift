import HTTP
import JSON

/// A watch on a range of keys from a revision (`/v3/watch`): every change
/// after it, in revision order, over a connection of its own.
///
/// When its member goes away the watch ends (``next(until:)`` throws); the
/// caller watches again from the revision after the last it saw, at any
/// member, and misses nothing, unless that revision was compacted away
/// (``EtcdWatchEvent/compacted(revision:)``).
///
/// Used from one thread at a time; not `Sendable`.
public final class EtcdWatch {
  private let connection: HTTPClientConnection
  public let endpoint: EtcdEndpoint

  /// Starts watching the keys from `key` up to `rangeEnd` (just `key` when
  /// nil) after `revision`, at the first member of `endpoints` that
  /// accepts, each given `timeout` to answer.
  public init(
    endpoints: [EtcdEndpoint], key: [UInt8], end rangeEnd: [UInt8]?, from revision: Int64, timeout: Duration
  ) throws(EtcdError) {
    var request: JSONObject = ["key": EtcdClient.base64(key), "start_revision": .string(String(revision))]
    if let rangeEnd { request["range_end"] = EtcdClient.base64(rangeEnd) }
    let body = CanonicalJSON.encode(.object(["create_request": .object(request)]))
    var failures: [String] = []
    for endpoint in endpoints {
      do {
        let connection = try HTTPClientConnection(host: endpoint.host, port: endpoint.port, timeout: timeout)
        let head = try connection.openStream("POST", "/v3/watch", body: body, until: .now + timeout)
        guard head.status == 200 else {
          failures.append("\(endpoint): HTTP \(head.status)")
          continue
        }
        self.connection = connection
        self.endpoint = endpoint
        return
      } catch {
        failures.append("\(endpoint): \(error)")
      }
    }
    throw .unavailable(failures)
  }

  /// The next changes, waiting until `deadline`: nil when none came by
  /// then (etcd sends nothing while nothing changes).
  ///
  /// - Throws: `EtcdError.unavailable` once the member or the connection
  ///   went away.
  public func next(until deadline: ContinuousClock.Instant) throws(EtcdError) -> [EtcdWatchEvent]? {
    while true {
      let line: [UInt8]
      do {
        guard let read = try connection.nextLine(until: deadline) else { return nil }
        line = read
      } catch {
        throw .unavailable(["\(endpoint): \(error)"])
      }
      guard !line.isEmpty else { continue }
      let json: JSONValue
      do {
        json = try JSONParser.parse(line)
      } catch {
        throw .malformed("\(endpoint) sent a watch line that is not JSON: \(error)")
      }
      guard case .object(let message) = json, case .object(let result)? = message["result"] else {
        throw .malformed("\(endpoint) sent a watch line without a result: \(json)")
      }
      if let compacted = EtcdClient.number(result["compact_revision"]), compacted > 0 {
        return [.compacted(revision: compacted)]
      }
      guard case .array(let events)? = result["events"] else { continue }
      return events.compactMap { event -> EtcdWatchEvent? in
        guard case .object(let fields) = event else { return nil }
        let kv = (try? EtcdClient.keyValues(in: .array([fields["kv"] ?? .null]))).flatMap(\.first)
        guard let kv else { return nil }
        if case .string("DELETE")? = fields["type"] { return .delete(kv) }
        return .put(kv)
      }
    }
  }

  public func close() { connection.close() }
}

/// One change a watch reports.
public enum EtcdWatchEvent: Equatable, Sendable {
  /// The key was set; its value and revisions.
  case put(EtcdClient.KeyValue)
  /// The key was deleted (its mod revision is the deletion's).
  case delete(EtcdClient.KeyValue)
  /// The revision asked for was compacted away: changes up to this one are
  /// gone, and the watch ended.
  case compacted(revision: Int64)
}
