// tcactl: sends actions to storedaemon and shows its state. See `tcactl --help`
// and docs/CLI.md.
import Foundation
import Glibc
import Platform
import Wire

SignalMask.unblockAll()

let invocation: Invocation
do {
  invocation = try Invocation.parse(
    Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
} catch {
  Terminal.usageError(error)
  exit(Invocation.ExitCode.usage.rawValue)
}

guard let command = invocation.command else {
  // `tcactl` alone, or `tcactl --help`.
  print(Usage.general)
  exit(invocation.help ? 0 : Invocation.ExitCode.usage.rawValue)
}
if invocation.help {
  print(Usage.help(for: command))
  exit(0)
}
switch command {
case .help:
  print(Usage.help(for: invocation.words.first.flatMap(Command.init(rawValue:)) ?? .help))
  exit(0)
case .version:
  print("tcactl 0.2.0")
  exit(0)
default:
  break
}

var token: String?
if let file = invocation.tokenFile {
  do {
    token = try TokenFile.read(file)
  } catch {
    Terminal.usageError(error)
    exit(Invocation.ExitCode.usage.rawValue)
  }
}

let client: WireClient
do {
  // Reads go to the first socket that answers; sends follow the leader of
  // a replicated store across the list, for as long as --timeout.
  client = try WireClient(
    paths: invocation.socketPaths, clientName: "tcactl \(command.rawValue)", daemon: invocation.app,
    daemonUser: invocation.daemonUser ?? .standard(serviceUser: invocation.app), leaderTimeout: invocation.timeout,
    // `stores` lists every store, and names none: the default store answers.
    token: token, store: command == .stores ? nil : invocation.store)
} catch {
  Terminal.error("\(error)")
  // Refused in the handshake (a user the daemon does not let in, too many
  // clients, another protocol version): the daemon answered, so 1. Anything
  // else, a daemon that accepted but never answered and a process of another
  // user listening in its place included, is 69.
  exit(error.isRefusal ? Invocation.ExitCode.rejected.rawValue : Invocation.ExitCode.unreachable.rawValue)
}

let code: Invocation.ExitCode
do {
  switch command {
  case .send: code = try Commands.send(invocation, client: client)
  case .get: code = try Commands.get(invocation, client: client)
  case .watch: code = try Watch.run(invocation, client: client)
  case .log: code = try ActionLog.run(invocation, client: client)
  case .whatIf: code = try WhatIf.run(invocation, client: client)
  case .actions: code = try ActionList.run(invocation, client: client)
  case .stores: code = try StoreList.run(invocation, client: client)
  case .status, .help, .version: code = try Commands.status(invocation, client: client)
  }
} catch {
  Terminal.error("\(error)")
  switch error {
  case .rejected, .notLeader, .timedOut: code = .rejected
  case .unreachable, .closed, .io, .protocolViolation, .impostor: code = .unreachable
  // No socket of the list took the request: 1 if a daemon refused it, 69
  // if none answered.
  case .allSocketsFailed: code = error.isRefusal ? .rejected : .unreachable
  }
}
exit(code.rawValue)
