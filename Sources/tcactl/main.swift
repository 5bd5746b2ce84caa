// tcactl: the command-line client that sends actions to storedaemon and watches
// its state. It needs the daemon's socket server (issue 3) and says so until then.
import Glibc

let arguments = CommandLine.arguments.dropFirst()
if arguments.contains("--version") {
  print("tcactl 0.1.0")
  exit(0)
}
print("""
  usage: tcactl send <action.path> [arguments...] | watch [path] | actions

  tcactl talks to storedaemon over its Unix socket; the socket server is not
  built yet, so no command can run.
  """)
exit(arguments.isEmpty || arguments.contains("--help") ? 0 : 2)
