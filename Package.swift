// swift-tools-version: 6.0
import PackageDescription

/// Every target builds in Swift 6 language mode; warnings as errors is left to
/// CI (`-warnings-as-errors` breaks incremental debugging locally).
///
/// Release builds leave out the runtime check of exclusive access to class
/// properties, globals and captured variables, as the standard library itself
/// is built: the check is a trap for a bug of ours (two overlapping
/// modifications of one variable), never for input, and it cost a tenth of
/// the daemon's work per action (docs/BENCHMARKS.md). Debug builds, which
/// the tests run, keep it on every access; the compile-time checks stay on
/// in both.
let settings: [SwiftSetting] = [
  .swiftLanguageMode(.v6),
  .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release)),
]

/// The modules, each one concern, and their one-way dependencies (a module
/// depends only on modules above it; docs/ARCHITECTURE.md, "Modules"):
///
///     Platform           the operating system: sockets, signals, threads, processes,
///                        files, clocks, logging, command lines
///     JSON               values, parsing, canonical writing, coding, patch, pointer
///     EffectRequests     what effects ask of workers, and the replies           ← JSON
///     ComposableCore     State, Action, Reducer, Effect, Store, Dependencies    ← EffectRequests, JSON, Platform
///     ActionLanguage     action paths, schemas, suggestions, rendering          ← ComposableCore, JSON
///     ComposableTesting  TestStore, the journal as a regression test            ← ComposableCore, Replay
///     Features           the seed apps                                          ← ComposableCore, ActionLanguage, JSON
///     Wire               frames, client and worker messages, the client library ← EffectRequests, JSON, Platform
///     Journal            the action log on disk: records, snapshots, recovery   ← JSON, Platform
///     HTTP               HTTP/1.1 requests, answers, event streams, a server    ← Platform
///     Metrics            Prometheus' text format, histograms, the /metrics      ← HTTP, Platform
///                        listener
///     Replication        etcd v3 through its JSON gateway; the replicated log   ← HTTP, JSON, Journal, Platform
///     Replay             recorded history through this build's reducers         ← ComposableCore, Journal, JSON
///     EffectWorkers      the worker programs: channel, timers, storage, network ← EffectRequests, Wire, Platform
///     StoreDaemon        the daemon as a library, generic over the app it hosts ← ComposableCore, ActionLanguage,
///                                                                                 Wire, Journal, Replay, Replication,
///                                                                                 Metrics, JSON, Platform
///     SeedApps (storedaemon), tcactl, tcaweb (WebClient), the benchmarks      ← what they use of the above
let package = Package(
  name: "storedaemon",
  products: [
    .library(name: "Platform", targets: ["Platform"]),
    .library(name: "JSON", targets: ["JSON"]),
    .library(name: "EffectRequests", targets: ["EffectRequests"]),
    .library(name: "ComposableCore", targets: ["ComposableCore"]),
    .library(name: "ActionLanguage", targets: ["ActionLanguage"]),
    .library(name: "ComposableTesting", targets: ["ComposableTesting"]),
    .library(name: "Features", targets: ["Features"]),
    .library(name: "Wire", targets: ["Wire"]),
    .library(name: "Journal", targets: ["Journal"]),
    .library(name: "HTTP", targets: ["HTTP"]),
    .library(name: "Metrics", targets: ["Metrics"]),
    .library(name: "Replication", targets: ["Replication"]),
    .library(name: "Replay", targets: ["Replay"]),
    .library(name: "StoreDaemon", targets: ["StoreDaemon"]),
    .executable(name: "storedaemon", targets: ["SeedApps"]),
    .executable(name: "effectworker", targets: ["effectworker"]),
    .executable(name: "effectworker-network", targets: ["NetworkWorker"]),
    .executable(name: "tcactl", targets: ["tcactl"]),
    .executable(name: "tcaweb", targets: ["WebClient"]),
    .executable(name: "journal-bench", targets: ["JournalBenchmark"]),
    .executable(name: "storedaemon-bench", targets: ["StoreBenchmark"]),
  ],
  targets: [
    /// epoll(7) and eventfd(2), which Swift's Glibc module does not declare.
    .systemLibrary(name: "CLinux", path: "Sources/CLinux"),
    .target(name: "Platform", dependencies: ["CLinux"], swiftSettings: settings),
    .target(name: "JSON", swiftSettings: settings),
    .target(name: "EffectRequests", dependencies: ["JSON"], swiftSettings: settings),
    .target(name: "ComposableCore", dependencies: ["EffectRequests", "JSON", "Platform"], swiftSettings: settings),
    .target(name: "ActionLanguage", dependencies: ["ComposableCore", "JSON"], swiftSettings: settings),
    .target(
      name: "ComposableTesting", dependencies: ["ComposableCore", "ActionLanguage", "Replay", "JSON"],
      swiftSettings: settings),
    .target(name: "Features", dependencies: ["ComposableCore", "ActionLanguage", "JSON"], swiftSettings: settings),
    .target(name: "Wire", dependencies: ["EffectRequests", "JSON", "Platform"], swiftSettings: settings),
    /// The CPU's CRC-32C instruction, which Swift cannot name.
    .systemLibrary(name: "CIntrinsics", path: "Sources/CIntrinsics"),
    .target(name: "Journal", dependencies: ["CIntrinsics", "JSON", "Platform"], swiftSettings: settings),
    .target(name: "HTTP", dependencies: ["Platform"], swiftSettings: settings),
    .target(name: "Metrics", dependencies: ["HTTP", "Platform"], swiftSettings: settings),
    .target(name: "Replication", dependencies: ["HTTP", "JSON", "Journal", "Platform"], swiftSettings: settings),
    .target(name: "Replay", dependencies: ["ComposableCore", "Journal", "JSON", "Platform"], swiftSettings: settings),
    .target(
      name: "StoreDaemon",
      dependencies: [
        "ComposableCore", "ActionLanguage", "Wire", "Journal", "Replay", "Replication", "Metrics", "JSON",
        "Platform",
      ],
      swiftSettings: settings),
    /// `storedaemon`: the daemon hosting the seed apps.
    .executableTarget(
      name: "SeedApps", dependencies: ["StoreDaemon", "Features", "ComposableCore"], swiftSettings: settings),
    /// What both worker programs share (channel, command line, process
    /// setup) and the timer and storage engines.
    .target(
      name: "EffectWorkers", dependencies: ["EffectRequests", "Wire", "Platform"],
      exclude: ["effectworker", "Network"], swiftSettings: settings),
    /// `effectworker`: timers and storage, FoundationEssentials only.
    .executableTarget(
      name: "effectworker", dependencies: ["EffectWorkers"], path: "Sources/EffectWorkers/effectworker",
      swiftSettings: settings),
    /// `effectworker-network`: HTTP through URLSession, the one worker that
    /// loads FoundationNetworking and libcurl.
    .executableTarget(
      name: "NetworkWorker", dependencies: ["EffectWorkers", "EffectRequests", "Platform"],
      path: "Sources/EffectWorkers/Network", swiftSettings: settings),
    .executableTarget(
      name: "tcactl", dependencies: ["Wire", "JSON", "Platform"],
      swiftSettings: settings),
    /// `tcaweb`: the apps and the inspector in a browser, a thin client
    /// beside tcactl (docs/WEB.md); its pages are built into it.
    .executableTarget(
      name: "WebClient", dependencies: ["HTTP", "Metrics", "Wire", "JSON", "Platform"],
      resources: [
        .embedInCode("Assets/index.html"), .embedInCode("Assets/login.html"), .embedInCode("Assets/app.js"),
        .embedInCode("Assets/screens.js"), .embedInCode("Assets/inspector.js"),
        .embedInCode("Assets/style.css"),
      ],
      swiftSettings: settings),
    .executableTarget(
      name: "JournalBenchmark", dependencies: ["Journal", "JSON", "Platform"], swiftSettings: settings),
    /// storedaemon beside Redis and the raw socket (docs/BENCHMARKS.md).
    .executableTarget(
      name: "StoreBenchmark", dependencies: ["Journal", "ComposableCore", "Features", "Wire", "JSON", "Platform"],
      swiftSettings: settings),

    /// A real local HTTP server, fakes of the seed apps' APIs and a seeded
    /// random generator, for tests (not a product: only test targets depend
    /// on it).
    .target(
      name: "TestSupport", dependencies: ["HTTP", "Platform"], path: "Tests/TestSupport", swiftSettings: settings),
    .testTarget(name: "PlatformTests", dependencies: ["Platform", "TestSupport"], swiftSettings: settings),
    .testTarget(name: "HTTPTests", dependencies: ["HTTP", "Platform", "TestSupport"], swiftSettings: settings),
    .testTarget(
      name: "MetricsTests", dependencies: ["Metrics", "HTTP", "Platform", "TestSupport"], swiftSettings: settings),
    .testTarget(
      name: "ReplicationTests",
      dependencies: ["Replication", "HTTP", "JSON", "Journal", "Platform", "TestSupport"],
      swiftSettings: settings),
    .testTarget(name: "JSONTests", dependencies: ["JSON", "ComposableCore", "TestSupport"], swiftSettings: settings),
    .testTarget(
      name: "TestSupportTests",
      dependencies: ["TestSupport", "HTTP", "Platform", "Features", "ComposableCore", "ComposableTesting"],
      swiftSettings: settings),
    .testTarget(
      name: "ComposableCoreTests", dependencies: ["ComposableCore", "ComposableTesting", "JSON"],
      swiftSettings: settings),
    .testTarget(
      name: "ActionLanguageTests", dependencies: ["ActionLanguage", "ComposableCore", "JSON"],
      swiftSettings: settings),
    .testTarget(
      name: "ComposableTestingTests", dependencies: ["ComposableCore", "ComposableTesting", "ActionLanguage", "JSON"],
      swiftSettings: settings),
    .testTarget(
      name: "ReplayTests", dependencies: ["Replay", "ComposableCore", "JSON", "Journal", "Wire"],
      swiftSettings: settings),
    .testTarget(
      name: "FeaturesTests",
      dependencies: [
        "Features", "ActionLanguage", "ComposableCore", "ComposableTesting", "JSON", "Wire", "TestSupport",
      ],
      swiftSettings: settings),
    .testTarget(
      name: "WireTests", dependencies: ["Wire", "ComposableCore", "JSON", "TestSupport"],
      swiftSettings: settings),
    /// The journal's tests run this in child processes: it appends until killed
    /// with SIGKILL, or until a file size limit stops it.
    .executableTarget(
      name: "JournalTestChild", dependencies: ["Journal", "JSON"], path: "Tests/JournalTestChild",
      swiftSettings: settings),
    .testTarget(
      name: "JournalTests", dependencies: ["Journal", "JSON", "Platform", "JournalTestChild", "TestSupport"],
      swiftSettings: settings),
    .testTarget(
      name: "EffectWorkersTests",
      dependencies: [
        "EffectWorkers", "effectworker", "NetworkWorker", "Wire", "ComposableCore", "Platform", "TestSupport", "HTTP",
      ],
      swiftSettings: settings),
    /// Two builds of one app, `shelfd`, whose State differs: the schema
    /// upgrade tests migrate what the first wrote (Tests/UpgradeApp/Fixtures,
    /// made by Tests/UpgradeApp/make-fixtures.sh) with the second.
    .executableTarget(
      name: "shelf-v1", dependencies: ["StoreDaemon", "ComposableCore", "ActionLanguage"],
      path: "Tests/UpgradeApp/ShelfV1", swiftSettings: settings),
    .executableTarget(
      name: "shelf-v2", dependencies: ["StoreDaemon", "ComposableCore", "ActionLanguage"],
      path: "Tests/UpgradeApp/ShelfV2", swiftSettings: settings),
    .testTarget(
      name: "StoreDaemonTests",
      dependencies: [
        "Wire", "ComposableCore", "ActionLanguage", "Features", "JSON", "Platform", "StoreDaemon", "SeedApps", "tcactl",
        "WebClient", "TestSupport", "Journal", "Replay", "Replication", "Metrics", "shelf-v1", "shelf-v2",
      ],
      swiftSettings: settings),
  ]
)
