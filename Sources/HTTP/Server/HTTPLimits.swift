/// What a server accepts of one client, so that a malformed, oversized or
/// slow request costs it a bounded amount and never holds a thread for ever.
public struct HTTPLimits: Sendable, Equatable {
  /// The largest request head (request line and fields); a longer one is
  /// answered 431.
  public var maximumHeadBytes: Int
  /// The most header fields in one request; more are answered 431.
  public var maximumHeaderFields: Int
  /// The largest body; a longer one is answered 413.
  public var maximumBodyBytes: Int
  /// How long a request may take to arrive, from its first byte to its
  /// last, head and body; a slower one is answered 408 and closed (a client
  /// that sends a byte at a time cannot hold a connection for ever).
  public var requestDeadline: Duration
  /// How long a kept-alive connection may wait for its next request before
  /// it is closed.
  public var idleTimeout: Duration
  /// How long a write may wait for a client that does not read before the
  /// connection is closed.
  public var writeTimeout: Duration
  /// The most connections served at once; one more is answered 503 and
  /// closed.
  public var maximumConnections: Int

  public init(
    maximumHeadBytes: Int = 16 * 1024, maximumHeaderFields: Int = 64, maximumBodyBytes: Int = 64 * 1024,
    requestDeadline: Duration = .seconds(10), idleTimeout: Duration = .seconds(60),
    writeTimeout: Duration = .seconds(10), maximumConnections: Int = 64
  ) {
    self.maximumHeadBytes = maximumHeadBytes
    self.maximumHeaderFields = maximumHeaderFields
    self.maximumBodyBytes = maximumBodyBytes
    self.requestDeadline = requestDeadline
    self.idleTimeout = idleTimeout
    self.writeTimeout = writeTimeout
    self.maximumConnections = maximumConnections
  }
}
