// tcaweb: the daemon's apps and inspector in a browser, a thin client like
// tcactl. See `tcaweb --help` and docs/WEB.md.
import Foundation
import Glibc
import HTTP
import Metrics
import Platform
import Wire

// SIGTERM and SIGINT are waited for below, on this thread: blocked before
// any thread starts, so every thread inherits the mask and none is killed.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_SETMASK, &stopSignals, nil)
signal(SIGPIPE, SIG_IGN)

func fail(_ message: String, code: Int32) -> Never {
  FileHandle.standardError.write(Data("tcaweb: \(message)\n".utf8))
  exit(code)
}

let options: WebOptions
do {
  options = try WebOptions.parse(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
  fail("\(error)\n\(WebOptions.usage)", code: 64)
}
if options.help {
  print(WebOptions.usage)
  exit(0)
}

var token: String?
if let file = options.tokenFile {
  do {
    token = try TokenFile.read(file)
  } catch {
    fail("\(error)", code: 64)
  }
}

let daemonUser = options.daemonUser ?? .standard(serviceUser: options.app)
let metrics = WebMetrics()
let server: HTTPServer
do {
  // Listening first: with port 0 the kernel picks one, which the access
  // rules must name.
  let listener = try HTTPServer.Listener(host: options.host, port: options.port)
  let routes = WebRoutes(
    access: WebAccess(host: options.host, port: listener.port, token: token, publicOrigin: options.publicOrigin),
    requests: DaemonRequests(socketPath: options.socketPath, app: options.app, daemonUser: daemonUser),
    events: StateEvents(socketPath: options.socketPath, app: options.app, daemonUser: daemonUser),
    log: LogEvents(socketPath: options.socketPath, app: options.app, daemonUser: daemonUser), metrics: metrics)
  server = try HTTPServer(listener: listener) { routes.answer($0) }
  try server.start()
} catch {
  fail("cannot serve on \(options.host):\(options.port): \(error)", code: 69)
}
FileHandle.standardOutput.write(
  Data("tcaweb: serving http://\(options.host):\(server.port)/ for \(options.app) at \(options.socketPath)\n".utf8))
var metricsEndpoint: MetricsEndpoint?
if let host = options.metricsHost {
  do {
    metricsEndpoint = try MetricsEndpoint(host: host, port: options.metricsPort) { metrics.exposition() }
  } catch {
    fail("\(error)", code: 69)
  }
  FileHandle.standardOutput.write(
    Data("tcaweb: serving metrics on http://\(host):\(metricsEndpoint?.port ?? 0)/metrics\n".utf8))
}

var received: Int32 = 0
sigwait(&stopSignals, &received)
metricsEndpoint?.shutDown()
server.shutDown()
exit(0)
