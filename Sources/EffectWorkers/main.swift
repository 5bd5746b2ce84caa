// effectworker: one process per effect kind (timer, network, storage), started
// by storedaemon over a socketpair. The workers are built in issue 4; until then
// this executable refuses to start rather than pretend.
import ComposableCore
import Glibc

StandardStream.error.write("effectworker: not implemented yet; storedaemon starts workers once they exist.\n")
exit(2)
