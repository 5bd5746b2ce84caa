import Glibc
import Platform
import Wire

/// What `tcaweb` is told on its command line (docs/WEB.md, "Options").
struct WebOptions: Equatable {
  /// The daemon's name, for its default socket and for messages.
  var app = DaemonAddress.defaultApp
  /// The daemon's socket; empty for the default of `app`.
  var socketPath = ""
  /// The IPv4 address and port to serve on.
  var host = "127.0.0.1"
  var port: UInt16 = 8080
  /// A file holding the token a person must give; required to serve
  /// beyond the loopback interface.
  var tokenFile: String?
  /// The users the daemon may run as.
  var daemonUser: DaemonUser?
  /// `--public-origin`: where browsers reach it through a reverse proxy.
  var publicOrigin: PublicOrigin?
  /// `--metrics HOST:PORT`: where Prometheus scrapes tcaweb's own metrics.
  var metricsHost: String?
  var metricsPort: UInt16 = 0
  var help = false

  static let usage = """
    usage: tcaweb [--listen HOST:PORT] [--socket PATH] [--app NAME] [--token-file FILE] [--daemon-user USER]
                  [--metrics HOST:PORT]

    Serves the daemon's apps and inspector to a browser (docs/WEB.md).

      --listen HOST:PORT    where to serve HTTP (default 127.0.0.1:8080; port 0: any free port)
      --socket PATH[,PATH…] the daemon's socket, or a replicated store's daemons' (sends
                            follow the leader); default: as tcactl finds it
      --app NAME            the daemon's name, for its default socket (default storedaemon)
      --token-file FILE     a file whose first line is the token a browser must give;
                            required with a HOST other than 127.x.x.x
      --daemon-user USER    the user the daemon may run as (default: yours, root, the app's)
      --public-origin URL   the origin browsers reach tcaweb at through a reverse proxy that
                            terminates TLS, e.g. https://shop.example.com: its host and origin
                            pass the Host and Origin checks; needs --token-file
      --metrics HOST:PORT   serve tcaweb's own metrics in Prometheus' text format at
                            http://HOST:PORT/metrics (docs/WEB.md, "Metrics")
    """

  private static let options: [ArgumentParser.Option] = [
    .init("--listen", value: "HOST:PORT"), .init("--socket", value: "a path"), .init("--app", value: "a daemon name"),
    .init("--token-file", value: "a file"), .init("--daemon-user", value: "a user name or uid"),
    .init("--metrics", value: "HOST:PORT"), .init("--public-origin", value: "a URL"), .init("--help", "-h"),
  ]

  /// Reads `arguments` (without the program's name).
  ///
  /// - Throws: `UsageError` saying what was expected.
  static func parse(_ arguments: [String], environment: [String: String]) throws(UsageError) -> WebOptions {
    var options = WebOptions()
    var parser = ArgumentParser(arguments, options: Self.options)
    while let argument = try parser.next() {
      switch argument {
      case .positional(let word):
        throw UsageError("tcaweb takes no arguments, only options; got '\(word)'")
      case .unknownOption(let word):
        throw UsageError("unknown option \(word); expected one of \(Self.options.map(\.name).joined(separator: ", "))")
      case .option("--help", _):
        options.help = true
      case .option("--listen", let value?):
        (options.host, options.port) = try listenAddress(value, for: "--listen")
      case .option("--metrics", let value?):
        let (host, port) = try listenAddress(value, for: "--metrics")
        (options.metricsHost, options.metricsPort) = (host, port)
      case .option("--public-origin", let value?):
        guard let origin = PublicOrigin(value) else {
          throw UsageError.invalidValue(
            value, for: "--public-origin", expected: "an origin such as https://shop.example.com or https://host:8443")
        }
        options.publicOrigin = origin
      case .option("--socket", let value?):
        options.socketPath = value
      case .option("--app", let value?):
        guard DaemonAddress.isDaemonName(value) else {
          throw UsageError.invalidValue(value, for: "--app", expected: "a daemon name such as storedaemon")
        }
        options.app = value
      case .option("--token-file", let value?):
        options.tokenFile = value
      case .option("--daemon-user", let value?):
        guard let user = DaemonUser(user: value) else {
          throw UsageError.invalidValue(value, for: "--daemon-user", expected: "a user name or uid")
        }
        options.daemonUser = user
      case .option(let name, _):
        throw UsageError("\(name) is not handled")
      }
    }
    if options.socketPath.isEmpty {
      let fromEnvironment = environment["TCA_SOCKET"] ?? ""
      options.socketPath =
        fromEnvironment.isEmpty
        ? DaemonAddress.defaultSocketPath(app: options.app, environment: environment) : fromEnvironment
    }
    if options.publicOrigin != nil && options.tokenFile == nil {
      throw UsageError(
        "--public-origin serves the pages to whoever reaches the proxy; give --token-file FILE, whose token a "
          + "person must then enter")
    }
    if !options.isLoopback && options.tokenFile == nil {
      throw UsageError(
        "--listen \(options.host):\(options.port) serves beyond this machine's loopback interface; "
          + "give --token-file FILE, whose token a person must then enter")
    }
    return options
  }

  /// Whether the address is on the loopback interface, where only this
  /// machine's users can connect.
  var isLoopback: Bool { host.hasPrefix("127.") }

  /// `HOST:PORT` read as an IPv4 address and a port.
  private static func listenAddress(_ value: String, for flag: String) throws(UsageError) -> (String, UInt16) {
    let expected = "HOST:PORT, an IPv4 address and a port such as 127.0.0.1:\(flag == "--metrics" ? 9465 : 8080)"
    guard let colon = value.lastIndex(of: ":"), let port = UInt16(value[value.index(after: colon)...]) else {
      throw UsageError.invalidValue(value, for: flag, expected: expected)
    }
    let host = String(value[..<colon])
    var address = in_addr()
    guard inet_pton(AF_INET, host, &address) == 1 else {
      throw UsageError.invalidValue(value, for: flag, expected: expected)
    }
    return (host, port)
  }
}
