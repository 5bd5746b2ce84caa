import Foundation
import Glibc
import Platform

/// A real nginx (Debian's package, which .ci/run installs) as a reverse
/// proxy that terminates TLS for a test: its own configuration, a
/// certificate for `serverName` made with openssl, and a port on 127.0.0.1,
/// passing every request to `upstream` with the browser's `Host`. Stopped
/// when the test lets go of it.
public final class NginxProxy {
  /// Where Debian installs it.
  public static let executable = "/usr/sbin/nginx"

  public static var isInstalled: Bool {
    access(executable, X_OK) == 0 && access("/usr/bin/openssl", X_OK) == 0
  }

  public let directory: TemporaryDirectory
  /// The port it listens on for HTTPS.
  public let port: UInt16
  private let process = Process()

  /// Starts nginx for `serverName` (e.g. `shop.test`) at a free port,
  /// proxying to `127.0.0.1:upstream`, and waits until it accepts.
  public init(serverName: String, upstream: UInt16) throws {
    directory = try TemporaryDirectory(prefix: "nginx-test")
    chmod(directory.path, 0o755)
    let key = directory.appending("key.pem")
    let certificate = directory.appending("certificate.pem")
    try Self.run(
      "/usr/bin/openssl",
      [
        "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", certificate, "-days", "1", "-subj",
        "/CN=\(serverName)", "-addext", "subjectAltName=DNS:\(serverName)",
      ])
    chmod(key, 0o644)
    port = try EtcdCluster.freePort()
    // Server-sent events pass through unbuffered, and may stay open.
    let configuration = """
      \(getuid() == 0 ? "user root root;" : "")
      worker_processes 1;
      daemon off;
      pid \(directory.appending("nginx.pid"));
      error_log \(directory.appending("error.log")) warn;
      events { worker_connections 256; }
      http {
        access_log \(directory.appending("access.log"));
        client_body_temp_path \(directory.appending("body"));
        proxy_temp_path \(directory.appending("proxy"));
        fastcgi_temp_path \(directory.appending("fastcgi"));
        uwsgi_temp_path \(directory.appending("uwsgi"));
        scgi_temp_path \(directory.appending("scgi"));
        server {
          listen 127.0.0.1:\(port) ssl;
          server_name \(serverName);
          ssl_certificate \(certificate);
          ssl_certificate_key \(key);
          location / {
            proxy_pass http://127.0.0.1:\(upstream);
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Connection "";
            proxy_buffering off;
            proxy_read_timeout 3600s;
          }
        }
      }

      """
    try configuration.write(toFile: directory.appending("nginx.conf"), atomically: true, encoding: .utf8)
    process.executableURL = URL(fileURLWithPath: Self.executable)
    process.arguments = ["-p", directory.path, "-c", directory.appending("nginx.conf")]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline && process.isRunning {
      if let descriptor = try? SocketCalls.connect(host: "127.0.0.1", port: port, timeout: .seconds(1)) {
        close(descriptor)
        return
      }
      usleep(50_000)
    }
    let log = (try? String(contentsOfFile: directory.appending("error.log"), encoding: .utf8)) ?? ""
    throw NginxProxyError(description: "nginx did not accept connections within a minute:\n\(log)")
  }

  /// The lines of its access log so far (nginx's combined format).
  public var accessLog: [String] {
    let text = (try? String(contentsOfFile: directory.appending("access.log"), encoding: .utf8)) ?? ""
    return text.split(separator: "\n").map(String.init)
  }

  /// Sends `request` (the raw HTTP/1.1 text) over TLS to the proxy, naming
  /// `serverName` (SNI), with `openssl s_client`; returns what came back.
  public func request(_ request: String, serverName: String) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
    process.arguments = ["s_client", "-quiet", "-connect", "127.0.0.1:\(port)", "-servername", serverName]
    let input = Pipe()
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    input.fileHandleForWriting.write(Data(request.utf8))
    // The answer ends the connection (`Connection: close`); the input stays
    // open until then, so that openssl does not close first.
    let data = output.fileHandleForReading.readDataToEndOfFile()
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
  }

  deinit {
    if process.isRunning {
      kill(process.processIdentifier, SIGQUIT)
      process.waitUntilExit()
    }
  }

  private static func run(_ executable: String, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      throw NginxProxyError(description: "\(executable) \(arguments.joined(separator: " ")) failed")
    }
  }
}

public struct NginxProxyError: Error, CustomStringConvertible {
  public let description: String
}
