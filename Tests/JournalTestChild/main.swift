// The journal tests' child process: it does to a journal what only a separate
// process can survive — being killed with SIGKILL mid-append, or running into
// a file size limit — and reports what it did on standard output.
//
//   JournalTestChild append-until-killed <dir> <durable-log> <max-batch> <snapshot-every>
//     Appends batches of 1…max-batch records (policy `always`) until killed.
//     After each append returns, writes the batch's last version and a line
//     feed to <durable-log>. Every <snapshot-every> versions (0: never) it
//     writes a snapshot.
//
//   JournalTestChild fill <dir> <file-size-limit>
//     Sets RLIMIT_FSIZE to <file-size-limit> bytes (SIGXFSZ ignored, so an
//     over-limit write fails with EFBIG), appends batches of 10 records until
//     an append fails, appends once more, raises the limit and appends again.
//     Prints one JSON line per step.
import Foundation
import Glibc
import JSON
import Journal

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("JournalTestChild: \(message)\n".utf8))
  exit(1)
}

func say(_ members: [String: JSONValue]) {
  // Unbuffered, so the parent reads each line even if this process dies next.
  let line = Array((CanonicalJSON.text(.object(JSONObject(members))) + "\n").utf8)
  _ = write(1, line, line.count)
}

func describe(_ error: JournalWriteError) -> [String: JSONValue] {
  let kind: String
  switch error {
  case .noSpace: kind = "noSpace"
  case .syncFailed: kind = "syncFailed"
  case .ioFailed: kind = "ioFailed"
  case .refused: kind = "refused"
  case .versionOutOfSequence: kind = "versionOutOfSequence"
  case .recordTooLarge: kind = "recordTooLarge"
  case .closed: kind = "closed"
  }
  return ["kind": .string(kind), "usable": .bool(error.writerStillUsable), "message": .string(error.description)]
}

func appendUntilKilled(directory: String, durableLog: String, maximumBatch: Int, snapshotEvery: UInt64) throws {
  let journal = try JournalDirectory(path: directory)
  let recovered = try journal.recover()
  let writer = try journal.openWriter(after: recovered, epoch: recovered.epoch ?? "child")
  let log = open(durableLog, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
  guard log >= 0 else { fail("cannot open \(durableLog): errno \(errno)") }
  var next = recovered.lastVersion + 1
  var generator = SystemRandomNumberGenerator()
  while true {
    let count = UInt64(Int.random(in: 1...maximumBatch, using: &generator))
    let batch = SampleJournal.records(next...(next + count - 1))
    try writer.append(batch)
    next += count
    let line = Array("\(next - 1)\n".utf8)
    guard write(log, line, line.count) == line.count else { fail("cannot write \(durableLog): errno \(errno)") }
    if snapshotEvery > 0, (next - 1) / snapshotEvery != (next - 1 - count) / snapshotEvery {
      try journal.writeSnapshot(version: next - 1, state: SampleJournal.state(at: next - 1), epoch: writer.epoch)
    }
  }
}

func fill(directory: String, limit: UInt64) throws {
  signal(SIGXFSZ, SIG_IGN)
  var limits = rlimit()
  getrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits)
  let unlimited = limits
  limits.rlim_cur = rlim_t(limit)
  guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limits) == 0 else { fail("setrlimit: errno \(errno)") }

  let journal = try JournalDirectory(path: directory)
  let writer = try journal.openWriter(after: try journal.recover(), epoch: "fill")
  var next: UInt64 = 1
  var failure: JournalWriteError?
  while failure == nil {
    do {
      try writer.append(SampleJournal.records(next...next + 9))
      next += 10
    } catch {
      failure = error
    }
  }
  say(["step": .string("full"), "lastAppended": .int(Int(next - 1))].merging(describe(failure!)) { $1 })
  do {
    try writer.append(SampleJournal.records(next...next + 9))
    say(["step": .string("again"), "kind": .string("ok")])
  } catch {
    say(["step": .string("again")].merging(describe(error)) { $1 })
  }
  var raised = unlimited
  guard setrlimit(Int32(RLIMIT_FSIZE.rawValue), &raised) == 0 else { fail("setrlimit: errno \(errno)") }
  do {
    try writer.append(SampleJournal.records(next...next + 9))
    next += 10
    try writer.close()
    say(["step": .string("raised"), "kind": .string("ok"), "lastAppended": .int(Int(next - 1))])
  } catch {
    say(["step": .string("raised")].merging(describe(error)) { $1 })
  }
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
  switch arguments.first {
  case "append-until-killed" where arguments.count == 5:
    guard let batch = Int(arguments[3]), batch > 0, let every = UInt64(arguments[4]) else { fail("bad arguments") }
    try appendUntilKilled(directory: arguments[1], durableLog: arguments[2], maximumBatch: batch, snapshotEvery: every)
  case "fill" where arguments.count == 3:
    guard let limit = UInt64(arguments[2]) else { fail("bad limit") }
    try fill(directory: arguments[1], limit: limit)
  default:
    fail("usage: append-until-killed <dir> <durable-log> <max-batch> <snapshot-every> | fill <dir> <limit>")
  }
} catch {
  fail("\(error)")
}
