import ActionLanguage
import ComposableCore
import FoundationEssentials
import Glibc
import JSON
import Journal
import Platform
import Replay
import Wire

extension HostedApp {
  /// `NAME verify`: replays the retained journals of a state directory (the
  /// default store's and each named store's, or with `--store` one) through
  /// this build's reducers and compares every version with what was
  /// recorded (docs/OPERATIONS.md, "Upgrade"). It reads only, without the
  /// directory's lock, so it runs beside the live daemon or on a copy.
  ///
  /// Exits 0 when every version is reproduced, 1 when some diverge (the
  /// first are printed), 64 for a usage error, 65 when a journal cannot be
  /// replayed at all (unreadable, of a newer schema, a base state this build
  /// cannot migrate); over several stores, the worst of these.
  static func runVerify(_ arguments: [String]) -> Never {
    if arguments.contains("--help") || arguments.contains("-h") {
      print(verifyUsage)
      exit(0)
    }
    var daemonArguments: [String] = []
    var shown = 10
    var only: StoreName?
    var index = 0
    while index < arguments.count {
      guard let (option, value, words) = verifyOption(arguments, at: index) else {
        daemonArguments.append(arguments[index])
        index += 1
        continue
      }
      index += words
      if option == "--show" {
        guard let value, let number = Int(value), number >= 0 else {
          Log.error("--show needs the number of divergences to print, e.g. --show 20")
          exit(64)
        }
        shown = number
      } else {
        do throws(MessageError) {
          only = try StoreName(value ?? "")
        } catch {
          Log.error("--store needs a store's name: \(error.message)")
          exit(64)
        }
      }
    }
    let options: DaemonOptions
    do {
      options = try DaemonOptions.parse(
        daemonArguments, environment: ProcessInfo.processInfo.environment, app: Self.self)
    } catch {
      Log.error("\(error)")
      StandardStream.error.write(verifyUsage + "\n")
      exit(64)
    }
    // The default store, then every named one; or the one --store names.
    var stores: [StoreName?] = [nil]
    if let only {
      guard FileIO.exists(StoreDirectories.directory(of: only, in: options.stateDirectory) + "/journal") else {
        Log.error("cannot verify the store '\(only)': \(options.stateDirectory) holds no such store")
        exit(65)
      }
      stores = [only]
    } else {
      do throws(SystemFailure) {
        stores += try StoreDirectories.names(in: options.stateDirectory)
      } catch {
        Log.error("cannot list the stores of \(options.stateDirectory): \(error)")
        exit(65)
      }
    }
    var status: Int32 = 0
    for store in stores {
      let outcome = verify(store: store, options: options, shown: shown)
      // A journal that cannot be replayed (65) outweighs divergences (1).
      status = max(status, outcome)
    }
    exit(status)
  }

  /// `--show` or `--store` at `index` of `arguments`, as `--name value` or
  /// `--name=value`: the option, its value, and how many words it took.
  private static func verifyOption(_ arguments: [String], at index: Int) -> (String, String?, Int)? {
    let argument = arguments[index]
    for option in ["--show", "--store"] {
      if argument == option { return (option, index + 1 < arguments.count ? arguments[index + 1] : nil, 2) }
      if argument.hasPrefix(option + "=") { return (option, String(argument.dropFirst(option.count + 1)), 1) }
    }
    return nil
  }

  /// Verifies the store `store` (nil: the default store) of the state
  /// directory and prints what it found; returns 0 when every version is
  /// reproduced, 1 when some diverge, 65 when it cannot be replayed.
  private static func verify(store: StoreName?, options: DaemonOptions, shown: Int) -> Int32 {
    let directory = StoreDirectories.directory(of: store, in: options.stateDirectory)
    let started = ContinuousClock.now
    let history: RecordedHistory
    let report: ReplayReport<Root.State>
    do throws(ReplayError) {
      history = try RecordedHistory(stateDirectory: directory)
      let replay = JournalReplay(
        reducer: makeRoot(), initialState: initialState, schema: schema, dependencies: options.settings.dependencies)
      report = try replay.verify(history, keeping: shown)
    } catch {
      Log.error("cannot verify \(directory): \(error)")
      return 65
    }
    let elapsed = ContinuousClock.now - started
    let actions = Root.Action.actionSchema
    for divergence in report.divergences {
      print(Self.describe(divergence, schema: actions))
    }
    let time = secondsText(elapsed)
    let replayed = report.versions.map { "versions \($0.lowerBound)…\($0.upperBound)" } ?? "no versions"
    let schemas =
      history.baseSchema == schemaVersion
      ? "schema \(schemaVersion)" : "schema \(history.baseSchema), migrated to \(schemaVersion)"
    let count = report.versions.map { Int($0.upperBound - $0.lowerBound + 1) } ?? 0
    guard report.reproduced else {
      let omitted = report.divergenceCount - report.divergences.count
      print(
        "\(build): \(report.divergenceCount) of \(count) versions diverge (\(replayed) of "
          + "\(directory), \(schemas), in \(time))"
          + (omitted > 0 ? "; \(shownText(report.divergences.count)) (--show N for more)" : ""))
      return 1
    }
    guard count > 0 else {
      print(
        "\(build): nothing to replay: the journal of \(directory) holds no actions after its state at "
          + "version \(history.baseVersion) (\(schemas))")
      return 0
    }
    print(
      "\(build): every version reproduced: \(replayed) of \(directory) (\(count) versions, \(schemas), "
        + "in \(time))")
    return 0
  }

  /// A duration to the hundredth of a second, as the subcommands print it:
  /// `0.04 s`.
  static func secondsText(_ elapsed: Duration) -> String {
    let hundredths = elapsed.components.seconds * 100 + elapsed.components.attoseconds / 10_000_000_000_000_000
    return "\(hundredths / 100).\(hundredths % 100 < 10 ? "0" : "")\(hundredths % 100) s"
  }

  /// How many divergences were printed, when there are more.
  static func shownText(_ count: Int) -> String {
    switch count {
    case 0: "none is shown"
    case 1: "the first is shown"
    default: "the first \(count) are shown"
    }
  }

  /// A divergence as `verify` prints it.
  static func describe(_ divergence: ReplayDivergence<Root.State>, schema: ActionSchema) -> String {
    let summary =
      SchemaChange(action: divergence.action)?.summary ?? ActionPath.describe(divergence.action, schema: schema)
    var lines = [
      "version \(divergence.version): \(summary)",
      "  recorded: \(CanonicalJSON.text(divergence.recordedPatch))",
      "  replayed: \(divergence.replayedPatch.map { CanonicalJSON.text($0) } ?? "(not reduced)")",
    ]
    if let problem = divergence.problem { lines.append("  \(problem)") }
    return lines.joined(separator: "\n")
  }

  static var verifyUsage: String {
    """
    usage: \(name) verify [--state-dir DIR] [--store NAME] [--show N] [feature settings]

    Replays the journals of DIR (default: the daemon's state directory), the
    default store's and each named store's (or with --store only NAME's), through
    this build's reducers, effects not run (their answers are in the journal),
    each action with the dates, UUIDs and random numbers it drew, and compares
    every version's patch with the recorded one. A journal of an older schema is
    migrated as the daemon would migrate it. It only reads, without the lock:
    run it beside the live daemon or on a copy of its state directory, before
    deploying this build.

    options:
      --state-dir DIR   the state directory, or a copy of it
      --store NAME      only the named store NAME
      --show N          how many divergences to print (default 10)
      --config FILE and the feature settings, as the daemon takes them: the
                        reducers read the same settings

    exit status: 0 when every version is reproduced, 1 when some diverge (the
    first are printed: version, action, recorded patch, replayed patch), 64 for
    a usage error, 65 when a journal cannot be replayed (the message says why);
    over several stores, the worst of theirs.
    """
  }
}
