/// One server-sent event (the HTML standard's `text/event-stream`): an
/// optional id, which a reconnecting browser sends back as `Last-Event-ID`,
/// an optional event name, and data, as the bytes of the stream.
public struct ServerSentEvent: Equatable, Sendable {
  public var id: String?
  public var event: String?
  public var data: String

  public init(id: String? = nil, event: String? = nil, data: String) {
    self.id = id
    self.event = event
    self.data = data
  }

  /// The event as written on the stream: a field per line, a `data:` line
  /// per line of data, and the empty line that ends it. Line breaks in the
  /// id or the name, which would end their field early, are left out.
  public var bytes: [UInt8] {
    var text = ""
    if let id { text += "id: \(Self.oneLine(id))\n" }
    if let event { text += "event: \(Self.oneLine(event))\n" }
    for line in data.split(separator: "\n", omittingEmptySubsequences: false) {
      text += "data: \(line.last == "\r" ? line.dropLast() : line)\n"
    }
    text += "\n"
    return Array(text.utf8)
  }

  /// A comment line, which browsers ignore: written to keep an idle stream
  /// alive through proxies and to find out whether the client is still there.
  public static let keepAlive = Array(": keep-alive\n\n".utf8)

  private static func oneLine(_ text: String) -> String {
    String(text.filter { $0 != "\n" && $0 != "\r" && $0 != "\r\n" })
  }
}
