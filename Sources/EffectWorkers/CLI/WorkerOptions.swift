import EffectRequests
import Platform

/// The command line of a worker program (`effectworker`,
/// `effectworker-network`), parsed.
///
/// Both programs take the same options, so options that concern one kind
/// only (`--state-dir` for storage, `--max-response-bytes` for network) are
/// accepted, and ignored, by the others.
package struct WorkerOptions: Equatable, Sendable {
  /// The default limit on an HTTP response body: 8 MiB.
  static let defaultMaximumResponseBytes = 8 << 20
  /// The largest `--max-response-bytes` accepted: 32 MiB, whose base64 form
  /// (about 43 MiB) still fits in one worker frame of at most 64 MiB.
  static let largestMaximumResponseBytes = 32 << 20

  package var kind: WorkerKind
  /// The storage worker's state directory; documents live under `stateDirectory/storage/`.
  var stateDirectory: String?
  /// The network worker's limit on a response body, in bytes.
  package var maximumResponseBytes: Int = defaultMaximumResponseBytes
  /// The least important log lines written.
  var logLevel: LogLevel = .info

  /// What the command line asks for.
  enum Parsed: Equatable, Sendable {
    case run(WorkerOptions)
    case help
  }

  /// The options both programs take.
  static let options: [ArgumentParser.Option] = [
    .init("--help", "-h"), .init("--kind", value: "a value"), .init("--state-dir", value: "a value"),
    .init("--max-response-bytes", value: "a value"), .init("--log-level", value: "a value"),
  ]

  /// Parses `arguments` (without the program name). `--name value` and
  /// `--name=value` are both accepted.
  static func parse(_ arguments: [String]) throws(UsageError) -> Parsed {
    var kind: WorkerKind?
    var stateDirectory: String?
    var maximumResponseBytes = defaultMaximumResponseBytes
    var logLevel = LogLevel.info
    var parser = ArgumentParser(arguments, options: options)
    while let argument = try parser.next() {
      switch argument {
      case .option("--help", _):
        return .help
      case .option("--kind", let text?):
        guard let parsed = WorkerKind(rawValue: text), parsed.isBuiltIn else {
          throw UsageError(
            "unknown kind '\(text)'; expected one of: \(WorkerKind.builtIn.map(\.rawValue).joined(separator: ", "))")
        }
        kind = parsed
      case .option("--state-dir", let text?):
        guard !text.isEmpty else { throw UsageError("--state-dir needs a directory, not an empty string") }
        stateDirectory = text
      case .option("--max-response-bytes", let text?):
        guard let bytes = Int(text), (1...largestMaximumResponseBytes).contains(bytes) else {
          throw .invalidValue(
            text, for: "--max-response-bytes",
            expected: "a whole number of bytes from 1 to \(largestMaximumResponseBytes)")
        }
        maximumResponseBytes = bytes
      case .option("--log-level", let text?):
        guard let level = LogLevel(name: text) else {
          throw .invalidValue(text, for: "--log-level", expected: "error, warning, info or debug")
        }
        logLevel = level
      case .option(let name, _), .unknownOption(let name), .positional(let name):
        throw UsageError("unknown argument '\(name)'")
      }
    }
    guard let kind else { throw UsageError("--kind is required") }
    if kind == .storage && stateDirectory == nil {
      throw UsageError("--kind storage needs --state-dir DIR (documents are kept under DIR/storage/)")
    }
    return .run(
      WorkerOptions(
        kind: kind, stateDirectory: stateDirectory, maximumResponseBytes: maximumResponseBytes, logLevel: logLevel))
  }

  /// The text `--help` prints and usage errors end with, for `program`:
  /// only the options of the kinds it serves are listed.
  static func usage(for program: WorkerProgram) -> String {
    let serves = { (kind: WorkerKind) in program.kinds.contains(kind) }
    let kinds = program.kinds.map(\.rawValue).joined(separator: "|")
    var synopsis = "usage: \(program.name) --kind \(kinds)"
    var options = [
      "  --kind KIND               the requests to serve: \(program.kinds.map(\.rawValue).joined(separator: " or "))"
    ]
    if serves(.storage) {
      synopsis += " [--state-dir DIR]"
      options.append("  --state-dir DIR           storage: keep documents under DIR/storage/ (required)")
    }
    if serves(.network) {
      synopsis += " [--max-response-bytes N]"
      options += [
        "  --max-response-bytes N    network: refuse response bodies over N bytes",
        "                            (default \(defaultMaximumResponseBytes), at most \(largestMaximumResponseBytes))",
      ]
    }
    synopsis += " [--log-level LEVEL]"
    options += [
      "  --log-level LEVEL         error, warning, info (default) or debug; lines start with",
      "                            their journald priority when standard error is the journal",
      "  -h, --help                print this text and exit",
    ]
    let what = program.kinds.map { kind in
      switch kind {
      case .timer: "timer"
      case .network: "HTTP"
      case .storage: "storage"
      default: kind.rawValue
      }
    }.joined(separator: " or ")
    return """
      \(synopsis)

      An effect worker of storedaemon: it carries out the \(what) requests of one
      kind and replies over the socket it finds on file descriptor 3. storedaemon
      starts it; it is not run by hand.

      options:
      \(options.joined(separator: "\n"))

      """
  }
}
