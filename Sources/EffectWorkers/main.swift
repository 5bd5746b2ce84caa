// effectworker: one process per effect kind (timer, network, storage), started
// by storedaemon over a socketpair. The workers are built in issue 4; until then
// this executable refuses to start rather than pretend.
import Glibc

/// Writes `text` to standard error (Glibc's `stderr` is a mutable global, which
/// strict concurrency rightly refuses).
func printError(_ text: String) {
  var text = text + "\n"
  text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

printError("effectworker: not implemented yet; storedaemon starts workers once they exist.")
exit(2)
