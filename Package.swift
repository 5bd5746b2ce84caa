// swift-tools-version: 6.0
import PackageDescription

/// Every target builds in Swift 6 language mode with warnings treated as errors
/// is left to CI (`-warnings-as-errors` breaks incremental debugging locally).
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "storedaemon",
  products: [
    .library(name: "ComposableCore", targets: ["ComposableCore"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "Wire", targets: ["Wire"]),
    .library(name: "Journal", targets: ["Journal"]),
    .executable(name: "storedaemon", targets: ["StoreDaemon"]),
    .executable(name: "effectworker", targets: ["effectworker"]),
    .executable(name: "effectworker-network", targets: ["NetworkWorker"]),
    .executable(name: "tcactl", targets: ["tcactl"]),
    .executable(name: "journal-bench", targets: ["JournalBenchmark"]),
    .executable(name: "storedaemon-bench", targets: ["StoreBenchmark"]),
  ],
  targets: [
    .target(name: "ComposableCore", swiftSettings: settings),
    .target(name: "ComposableTesting", dependencies: ["ComposableCore"], swiftSettings: settings),
    .target(name: "Features", dependencies: ["ComposableCore"], swiftSettings: settings),
    .target(name: "Wire", dependencies: ["ComposableCore"], swiftSettings: settings),
    .target(name: "Journal", dependencies: ["ComposableCore", "Wire"], swiftSettings: settings),
    .executableTarget(name: "JournalBenchmark", dependencies: ["Journal", "ComposableCore", "Wire"], swiftSettings: settings),
    /// storedaemon beside Redis and the raw socket (docs/BENCHMARKS.md).
    .executableTarget(
      name: "StoreBenchmark", dependencies: ["Journal", "ComposableCore", "Wire", "Features"], swiftSettings: settings),
    .executableTarget(
      name: "StoreDaemon", dependencies: ["ComposableCore", "Features", "Wire", "Journal"], swiftSettings: settings),
    /// What both worker programs share (channel, command line, process
    /// setup) and the timer and storage engines.
    .target(
      name: "EffectWorkers", dependencies: ["ComposableCore", "Wire"], exclude: ["effectworker", "Network"],
      swiftSettings: settings),
    /// `effectworker`: timers and storage, FoundationEssentials only.
    .executableTarget(
      name: "effectworker", dependencies: ["EffectWorkers"], path: "Sources/EffectWorkers/effectworker",
      swiftSettings: settings),
    /// `effectworker-network`: HTTP through URLSession, the one worker that
    /// loads FoundationNetworking and libcurl.
    .executableTarget(
      name: "NetworkWorker", dependencies: ["EffectWorkers", "ComposableCore", "Wire"],
      path: "Sources/EffectWorkers/Network", swiftSettings: settings),
    .executableTarget(name: "tcactl", dependencies: ["Wire", "ComposableCore"], swiftSettings: settings),
    /// A real local HTTP server, fakes of the seed apps' APIs and a seeded
    /// random generator, for tests (not a product: only test targets depend
    /// on it).
    .target(name: "TestSupport", path: "Tests/TestSupport", swiftSettings: settings),
    .testTarget(
      name: "TestSupportTests", dependencies: ["TestSupport", "Features", "ComposableCore", "ComposableTesting"],
      swiftSettings: settings),
    .testTarget(
      name: "ComposableCoreTests", dependencies: ["ComposableCore", "ComposableTesting", "TestSupport"],
      swiftSettings: settings),
    .testTarget(
      name: "ComposableTestingTests", dependencies: ["ComposableCore", "ComposableTesting"],
      swiftSettings: settings),
    .testTarget(
      name: "FeaturesTests", dependencies: ["Features", "ComposableCore", "ComposableTesting", "Wire"],
      swiftSettings: settings),
    .testTarget(name: "WireTests", dependencies: ["Wire", "ComposableCore", "TestSupport"], swiftSettings: settings),
    /// The journal's tests run this in child processes: it appends until killed
    /// with SIGKILL, or until a file size limit stops it.
    .executableTarget(
      name: "JournalTestChild", dependencies: ["Journal", "ComposableCore"], path: "Tests/JournalTestChild",
      swiftSettings: settings),
    .testTarget(
      name: "JournalTests", dependencies: ["Journal", "ComposableCore", "Wire", "JournalTestChild", "TestSupport"],
      swiftSettings: settings),
    .testTarget(
      name: "EffectWorkersTests",
      dependencies: ["EffectWorkers", "effectworker", "NetworkWorker", "Wire", "ComposableCore", "TestSupport"],
      swiftSettings: settings),
    .testTarget(
      name: "StoreDaemonTests", dependencies: ["Wire", "ComposableCore", "StoreDaemon", "tcactl", "TestSupport", "Journal"],
      swiftSettings: settings),
  ]
)
