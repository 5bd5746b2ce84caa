import Foundation
import JSON
import Journal
import Platform

// journal-bench: how long the journal takes to write and recover a million
// small records, and to write and load a snapshot of a 100,000-element
// collection. Run it in release mode:
//
//     swift run -c release journal-bench [--records N] [--elements N] [--directory DIR]
//
// It works in a fresh directory under DIR (default: the system's temporary
// directory) and removes it afterwards. Timings are wall-clock, one run each;
// docs/DURABILITY.md records a run.

struct Options {
  var records = 1_000_000
  var elements = 100_000
  var batch = 1_000
  var directory = NSTemporaryDirectory()

  init(_ arguments: [String]) {
    let options = ["--records", "--elements", "--batch", "--directory"].map { ArgumentParser.Option($0, value: "N") }
    var parser = ArgumentParser(arguments, options: options)
    func usage() -> Never {
      FileHandle.standardError.write(
        Data("usage: journal-bench [--records N] [--elements N] [--batch N] [--directory DIR]\n".utf8))
      exit(2)
    }
    do {
      while let argument = try parser.next() {
        switch argument {
        // A value that is not a number leaves the default.
        case .option("--records", let text?): records = Int(text) ?? records
        case .option("--elements", let text?): elements = Int(text) ?? elements
        case .option("--batch", let text?): batch = Int(text) ?? batch
        case .option("--directory", let text?): directory = text
        case .option, .unknownOption, .positional: usage()
        }
      }
    } catch {
      usage()
    }
  }
}

/// Runs `body` and returns its result and the seconds it took.
func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
  let start = MonotonicClock.now()
  let result = try body()
  return (result, MonotonicClock.seconds(from: start, to: MonotonicClock.now()))
}

func row(_ what: String, _ seconds: Double, _ detail: String = "") {
  let padded = what.padding(toLength: 66, withPad: " ", startingAt: 0)
  print("| \(padded) | \(String(format: "%8.3f s", seconds)) | \(detail) |")
}

func megabytes(_ bytes: Int) -> String { String(format: "%.1f MB", Double(bytes) / 1e6) }

/// A small record like the counter feature's: one action, one replaced number.
func record(_ version: UInt64) -> JournalRecord {
  JournalRecord(
    version: version, time: 1_700_000_000_000 + Int64(version),
    origin: .object(["client": .string("bench"), "connection": .int(1)]),
    action: .object(["counter": .string("incrementButtonTapped")]),
    patch: .array([
      .object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(Int(version))])
    ]))
}

func directorySize(_ path: String) -> Int {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
  return names.reduce(0) { total, name in
    let attributes = try? FileManager.default.attributesOfItem(atPath: path + "/" + name)
    return total + ((attributes?[.size] as? NSNumber)?.intValue ?? 0)
  }
}

func run() throws {
  let options = Options(Array(CommandLine.arguments.dropFirst()))
  let base = options.directory.hasSuffix("/") ? String(options.directory.dropLast()) : options.directory
  let root = base + "/journal-bench-\(getpid())"
  try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(atPath: root) }
  let initial: JSONValue = .object(["counter": .object(["count": .int(0)])])

  print(
    "journal-bench: \(options.records) records in batches of \(options.batch), a snapshot of "
      + "\(options.elements) elements, in \(root)\n")
  print("| step | time | detail |")
  print("|---|---|---|")

  // 1. A million small records.
  let path = root + "/records"
  do {
    let journal = try JournalDirectory(path: path)
    let recovered = try journal.recover()
    let writer = try journal.openWriter(after: recovered, epoch: "bench", configuration: .init(sync: .always))
    let records = (1...UInt64(options.records)).map(record)
    let (_, seconds) = try timed {
      for start in stride(from: 0, to: records.count, by: options.batch) {
        try writer.append(Array(records[start..<min(start + options.batch, records.count)]))
      }
      try writer.close()
    }
    let batches = (options.records + options.batch - 1) / options.batch
    row(
      "write \(options.records) records, `always`, \(batches) batches", seconds,
      "\(Int(Double(options.records) / seconds)) records/s, \(megabytes(directorySize(path))), \(batches) fdatasyncs")
  }
  do {
    let journal = try JournalDirectory(path: path)
    let (recovered, readSeconds) = try timed { try journal.recover() }
    row(
      "recover: read, check and index \(recovered.records.count) records", readSeconds,
      "\(recovered.report.segmentsRead.count) segments, last version \(recovered.lastVersion)")
    let (state, replaySeconds) = try timed { try recovered.replay(initialState: initial) }
    row("replay: decode and apply \(recovered.records.count) patches", replaySeconds, CanonicalJSON.text(state))
    row("recover + replay: state at the last version", readSeconds + replaySeconds)
    let (decoded, decodeSeconds) = try timed {
      try recovered.records.reduce(0) { count, entry in count + (try entry.decoded().version > 0 ? 1 : 0) }
    }
    row("decode all \(decoded) records fully (action, origin, patch)", decodeSeconds)
  }

  // 2. A snapshot of a 100,000-element collection.
  let snapshotPath = root + "/snapshot"
  let items: JSONValue = .array(
    (0..<options.elements).map { index in
      .object([
        "id": .int(index), "title": .string("Product \(index)"), "price": .double(Double(index % 1000) + 0.99),
        "quantity": .int(index % 7), "inStock": .bool(index % 3 != 0),
      ])
    })
  let bigState: JSONValue = .object(["products": .object(["items": items]), "counter": .object(["count": .int(0)])])
  do {
    let journal = try JournalDirectory(path: snapshotPath)
    let recovered = try journal.recover()
    let writer = try journal.openWriter(after: recovered, epoch: "bench")
    try writer.append([record(1)])
    let (result, seconds) = try timed { try journal.writeSnapshot(version: 1, state: bigState, epoch: "bench") }
    row(
      "write a snapshot of \(options.elements) elements (encode, write, sync, rename)", seconds, megabytes(result.bytes)
    )
    // Records that each change one element of the collection.
    let tail = (2...UInt64(1001)).map { version in
      var changed = record(version)
      changed.patch = .array([
        .object([
          "op": .string("replace"), "path": .string("/products/items/\(Int(version) * 97 % options.elements)/quantity"),
          "value": .int(Int(version)),
        ])
      ])
      return changed
    }
    try writer.append(tail)
    try writer.close()
  }
  do {
    let journal = try JournalDirectory(path: snapshotPath)
    let (recovered, seconds) = try timed { try journal.recover() }
    row(
      "recover: load that snapshot (read, check, parse), 1000 records", seconds,
      "snapshot version \(recovered.snapshot?.version ?? 0), last version \(recovered.lastVersion)")
    let (_, replaySeconds) = try timed { try recovered.replay(initialState: initial) }
    row("replay 1000 patches, each changing one of the \(options.elements) elements", replaySeconds)
  }

  // 3. The latency of one durable append.
  let latencyPath = root + "/latency"
  do {
    let journal = try JournalDirectory(path: latencyPath)
    let writer = try journal.openWriter(after: try journal.recover(), epoch: "bench")
    var durations: [Double] = []
    for version in 1...UInt64(200) {
      let (_, seconds) = try timed { try writer.append([record(version)]) }
      durations.append(seconds)
    }
    try writer.close()
    durations.sort()
    row(
      "append 1 record with `always` (200 appends)", durations.reduce(0, +),
      String(format: "median %.2f ms, 99th percentile %.2f ms", durations[100] * 1000, durations[197] * 1000))
  }
}

do {
  try run()
} catch {
  FileHandle.standardError.write(Data("journal-bench: \(error)\n".utf8))
  exit(1)
}
