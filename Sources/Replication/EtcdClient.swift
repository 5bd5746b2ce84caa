import FoundationEssentials
import Glibc
import HTTP
import JSON

/// A client of etcd v3's JSON gateway (`/v3/kv/*`, `/v3/lease/*`,
/// `/v3/watch`), which needs no client library: keys and values travel as
/// base64 in JSON over HTTP/1.1, and 64-bit numbers as decimal strings.
///
/// A request goes to the member that answered last, and on a failure to
/// connect, a timeout or an answer of 503 (etcd's own "request timed out"
/// while it elects a leader), to each other member in turn, round after
/// round, until ``patience`` has passed; so the client keeps working while
/// a majority is up. etcd itself makes every write linearizable through
/// Raft; this client adds nothing to that but the failover. A write that
/// ends in ``EtcdError/unavailable`` may or may not have been applied (a
/// member can commit it and then fail to answer): a caller that must know
/// writes with a transaction whose comparison tells it afterwards.
///
/// Used from one thread at a time; not `Sendable`.
public final class EtcdClient {
  public let endpoints: [EtcdEndpoint]
  /// How long one member may take to answer before the next is tried.
  public let timeout: Duration
  /// How long a request is tried, member after member, before it fails.
  public let patience: Duration
  private var preferred = 0
  private var connection: HTTPClientConnection?

  public init(endpoints: [EtcdEndpoint], timeout: Duration = .seconds(5), patience: Duration? = nil) {
    // invariant: the endpoints come from EtcdEndpoint.parse(url:), which refuses a list of none (--replicate etcd://
    // is malformed, EtcdEndpointTests); the daemon never makes a client of no member
    precondition(!endpoints.isEmpty, "an etcd client needs an endpoint")
    self.endpoints = endpoints
    self.timeout = timeout
    self.patience = patience ?? timeout * 3
  }

  /// A key and its value, with the revisions etcd keeps for it.
  public struct KeyValue: Equatable, Sendable {
    public var key: [UInt8]
    public var value: [UInt8]
    public var createRevision: Int64
    public var modRevision: Int64
    public var version: Int64
    public var lease: Int64
  }

  // MARK: Keys

  /// Sets `key` to `value` (attached to `lease`, if given); returns the
  /// store's revision after the write.
  @discardableResult
  public func put(_ key: [UInt8], _ value: [UInt8], lease: Int64? = nil) throws(EtcdError) -> Int64 {
    let answer = try call("/v3/kv/put", Self.put(key, value, lease: lease))
    return try Self.revision(of: answer)
  }

  /// The keys from `key` up to `rangeEnd` (just `key` when nil; see
  /// ``prefixEnd(of:)``), sorted by key, and the store's revision.
  public func range(_ key: [UInt8], end rangeEnd: [UInt8]? = nil, limit: Int? = nil) throws(EtcdError) -> (
    values: [KeyValue], revision: Int64
  ) {
    var request: JSONObject = ["key": Self.base64(key)]
    if let rangeEnd { request["range_end"] = Self.base64(rangeEnd) }
    if let limit { request["limit"] = .string(String(limit)) }
    let answer = try call("/v3/kv/range", .object(request))
    return (try Self.keyValues(in: answer["kvs"]), try Self.revision(of: answer))
  }

  /// Deletes the keys from `key` up to `rangeEnd`; returns how many.
  @discardableResult
  public func delete(_ key: [UInt8], end rangeEnd: [UInt8]? = nil) throws(EtcdError) -> Int {
    var request: JSONObject = ["key": Self.base64(key)]
    if let rangeEnd { request["range_end"] = Self.base64(rangeEnd) }
    let answer = try call("/v3/kv/deleterange", .object(request))
    return Int(Self.number(answer["deleted"]) ?? 0)
  }

  /// A comparison a transaction makes before it writes.
  public enum Comparison: Sendable {
    /// The key's last modification is at this revision (0: it does not exist).
    case modRevision(of: [UInt8], equals: Int64)
    /// The key was created at this revision (0: it does not exist).
    case createRevision(of: [UInt8], equals: Int64)
    /// The key's value is this.
    case value(of: [UInt8], equals: [UInt8])
    /// The key is attached to this lease.
    case lease(of: [UInt8], equals: Int64)
  }

  /// A write a transaction makes.
  public enum Operation: Sendable {
    case put([UInt8], [UInt8], lease: Int64?)
    /// Deletes the keys from the first up to the second (just the first when nil).
    case delete([UInt8], end: [UInt8]?)
  }

  /// Writes `success` if every comparison holds, else `failure`, atomically;
  /// returns whether they held and the store's revision after.
  public func transaction(
    comparing comparisons: [Comparison], success: [Operation], failure: [Operation] = []
  ) throws(EtcdError) -> (succeeded: Bool, revision: Int64) {
    let request: JSONValue = .object([
      "compare": .array(JSONArray(comparisons.map(Self.json(of:)))),
      "success": .array(JSONArray(success.map(Self.json(of:)))),
      "failure": .array(JSONArray(failure.map(Self.json(of:)))),
    ])
    let answer = try call("/v3/kv/txn", request)
    let succeeded: Bool
    if case .bool(let value)? = answer["succeeded"] { succeeded = value } else { succeeded = false }
    return (succeeded, try Self.revision(of: answer))
  }

  /// Compacts the store's history up to `revision`: older revisions can no
  /// longer be read or watched from.
  public func compact(to revision: Int64) throws(EtcdError) {
    _ = try call("/v3/kv/compaction", .object(["revision": .string(String(revision)), "physical": .bool(true)]))
  }

  // MARK: Leases

  /// A new lease of `ttl` seconds; returns its id and the time etcd granted.
  public func grantLease(ttl: Int) throws(EtcdError) -> (id: Int64, ttl: Int) {
    let answer = try call("/v3/lease/grant", .object(["TTL": .string(String(ttl))]))
    guard let id = Self.number(answer["ID"]), let granted = Self.number(answer["TTL"]) else {
      throw .malformed("a lease grant without an ID and TTL")
    }
    return (id, Int(granted))
  }

  /// Renews `lease`; returns the seconds it now has, 0 when it had expired
  /// (or never existed).
  public func keepAlive(_ lease: Int64) throws(EtcdError) -> Int {
    // The gateway streams keep-alive answers; one request gets one.
    let answer = try call("/v3/lease/keepalive", .object(["ID": .string(String(lease))]))
    let result: JSONObject
    if case .object(let inner)? = answer["result"] { result = inner } else { result = answer }
    return Int(Self.number(result["TTL"]) ?? 0)
  }

  /// Ends `lease` now: its keys are deleted.
  public func revoke(_ lease: Int64) throws(EtcdError) {
    _ = try call("/v3/lease/revoke", .object(["ID": .string(String(lease))]))
  }

  /// Watches the keys from `key` up to `rangeEnd` after `revision`, at the
  /// members in turn (see ``EtcdWatch``).
  public func watch(_ key: [UInt8], end rangeEnd: [UInt8]? = nil, after revision: Int64) throws(EtcdError)
    -> EtcdWatch
  {
    let order = endpoints[preferred...] + endpoints[..<preferred]
    return try EtcdWatch(endpoints: Array(order), key: key, end: rangeEnd, from: revision + 1, timeout: timeout)
  }

  /// The end of the range of every key starting with `prefix`.
  public static func prefixEnd(of prefix: [UInt8]) -> [UInt8] {
    var end = prefix
    while let last = end.last {
      if last < 0xFF {
        end[end.count - 1] = last + 1
        return end
      }
      end.removeLast()
    }
    return [0]
  }

  // MARK: -

  /// Posts `request` to `path` at the preferred member, or each other in
  /// turn; returns the answer's JSON object.
  private func call(_ path: String, _ request: JSONValue) throws(EtcdError) -> JSONObject {
    let body = CanonicalJSON.encode(request)
    let giveUp = ContinuousClock.now + patience
    var failures: [String] = []
    var attempt = 0
    while true {
      let index = (preferred + attempt) % endpoints.count
      let endpoint = endpoints[index]
      attempt += 1
      do {
        let connection = try connection(to: index)
        let response = try connection.request("POST", path, body: body, until: .now + timeout)
        if response.status == 503 {
          failures.append("\(endpoint): \(String(decoding: response.body.prefix(200), as: UTF8.self))")
        } else {
          preferred = index
          return try Self.answer(response, from: endpoint)
        }
      } catch let error as EtcdError {
        throw error
      } catch {
        self.connection?.close()
        self.connection = nil
        failures.append("\(endpoint): \(error)")
      }
      guard ContinuousClock.now < giveUp else { throw .unavailable(Array(failures.suffix(endpoints.count))) }
      // After a round with no answer, a moment for an election to end.
      if attempt % endpoints.count == 0 { usleep(100_000) }
    }
  }

  private func connection(to index: Int) throws(HTTPClientError) -> HTTPClientConnection {
    let endpoint = endpoints[index]
    if let connection, connection.host == endpoint.host, connection.port == endpoint.port { return connection }
    connection?.close()
    let made = try HTTPClientConnection(host: endpoint.host, port: endpoint.port, timeout: timeout)
    connection = made
    return made
  }

  static func answer(_ response: HTTPClientResponse, from endpoint: EtcdEndpoint) throws(EtcdError) -> JSONObject {
    let json: JSONValue
    do {
      // The keep-alive stream's first answer ends with a newline.
      let line = response.body.split(separator: UInt8(ascii: "\n")).first.map(Array.init) ?? response.body
      json = try JSONParser.parse(line)
    } catch {
      throw .malformed("\(endpoint) answered \(response.status) with no JSON: \(error)")
    }
    guard case .object(let object) = json else {
      throw .malformed("\(endpoint) answered a JSON \(json), not an object")
    }
    guard response.status == 200 else {
      let message: String
      if case .string(let text)? = object["message"] ?? object["error"] { message = text } else { message = "\(json)" }
      throw .rejected(status: response.status, message: message)
    }
    return object
  }

  static func base64(_ bytes: [UInt8]) -> JSONValue { .string(Data(bytes).base64EncodedString()) }

  static func bytes(_ value: JSONValue?) -> [UInt8] {
    guard case .string(let text)? = value, let data = Data(base64Encoded: text) else { return [] }
    return Array(data)
  }

  /// A 64-bit number, which the gateway writes as a string.
  static func number(_ value: JSONValue?) -> Int64? {
    switch value {
    case .string(let text)?: Int64(text)
    case .int(let number)?: Int64(number)
    default: nil
    }
  }

  static func revision(of answer: JSONObject) throws(EtcdError) -> Int64 {
    guard case .object(let header)? = answer["header"], let revision = number(header["revision"]) else {
      throw .malformed("an answer without its header's revision")
    }
    return revision
  }

  static func keyValues(in value: JSONValue?) throws(EtcdError) -> [KeyValue] {
    guard case .array(let items)? = value else { return [] }
    return items.compactMap { item in
      guard case .object(let kv) = item else { return nil }
      return KeyValue(
        key: bytes(kv["key"]), value: bytes(kv["value"]), createRevision: number(kv["create_revision"]) ?? 0,
        modRevision: number(kv["mod_revision"]) ?? 0, version: number(kv["version"]) ?? 0,
        lease: number(kv["lease"]) ?? 0)
    }
  }

  static func put(_ key: [UInt8], _ value: [UInt8], lease: Int64?) -> JSONValue {
    var request: JSONObject = ["key": base64(key), "value": base64(value)]
    if let lease { request["lease"] = .string(String(lease)) }
    return .object(request)
  }

  static func json(of comparison: Comparison) -> JSONValue {
    switch comparison {
    case .modRevision(let key, let revision):
      .object([
        "key": base64(key), "result": .string("EQUAL"), "target": .string("MOD"),
        "mod_revision": .string(String(revision)),
      ])
    case .createRevision(let key, let revision):
      .object([
        "key": base64(key), "result": .string("EQUAL"), "target": .string("CREATE"),
        "create_revision": .string(String(revision)),
      ])
    case .value(let key, let value):
      .object(["key": base64(key), "result": .string("EQUAL"), "target": .string("VALUE"), "value": base64(value)])
    case .lease(let key, let lease):
      .object([
        "key": base64(key), "result": .string("EQUAL"), "target": .string("LEASE"), "lease": .string(String(lease)),
      ])
    }
  }

  static func json(of operation: Operation) -> JSONValue {
    switch operation {
    case .put(let key, let value, let lease): .object(["request_put": put(key, value, lease: lease)])
    case .delete(let key, let rangeEnd):
      .object([
        "request_delete_range": .object(
          rangeEnd.map { ["key": base64(key), "range_end": base64($0)] } ?? ["key": base64(key)])
      ])
    }
  }
}
