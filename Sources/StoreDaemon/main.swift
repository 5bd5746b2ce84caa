// storedaemon: the long-running process that owns the State tree and the root
// reducer. Serving clients over its Unix socket is built in issue 3; until then
// it says so instead of pretending to run.
import Glibc

/// Writes `text` to standard error (Glibc's `stderr` is a mutable global, which
/// strict concurrency rightly refuses).
func printError(_ text: String) {
  var text = text + "\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let usage = """
  usage: storedaemon [--help] [--version]

  storedaemon will own the application state and reduce every action sent to it
  over a Unix socket. The socket server is not built yet: the reducer core and
  the features it will host are in ComposableCore and Features.
  """

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--help") || arguments.contains("-h") {
  print(usage)
  exit(0)
}
if arguments.contains("--version") {
  print("storedaemon 0.1.0")
  exit(0)
}
printError("storedaemon: serving over a socket is not implemented yet; see --help.")
exit(2)
