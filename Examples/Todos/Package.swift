// swift-tools-version: 6.0
import PackageDescription

/// TCA's Todos as an app of its own, built on storedaemon's reducer core: the
/// package depends on storedaemon by path, as any hosted app would.
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "Todos",
  products: [
    .library(name: "Todos", targets: ["Todos"]),
    .executable(name: "todosd", targets: ["todosd"]),
  ],
  dependencies: [
    .package(name: "storedaemon", path: "../..")
  ],
  targets: [
    /// The features: `Todos` (the list) and `Todo` (one row), with their action schemas.
    .target(
      name: "Todos",
      dependencies: [
        .product(name: "ComposableCore", package: "storedaemon"),
        .product(name: "ActionLanguage", package: "storedaemon"),
      ],
      swiftSettings: settings),
    /// The daemon hosting the list. storedaemon's worker programs and tcactl
    /// are built beside it: the daemon starts its workers from its own directory.
    .executableTarget(
      name: "todosd",
      dependencies: [
        "Todos",
        .product(name: "StoreDaemon", package: "storedaemon"),
        .product(name: "effectworker", package: "storedaemon"),
        .product(name: "effectworker-network", package: "storedaemon"),
        .product(name: "tcactl", package: "storedaemon"),
      ],
      swiftSettings: settings),
    .testTarget(
      name: "TodosTests",
      dependencies: [
        "Todos",
        .product(name: "ComposableCore", package: "storedaemon"),
        .product(name: "ComposableTesting", package: "storedaemon"),
        .product(name: "ActionLanguage", package: "storedaemon"),
        .product(name: "JSON", package: "storedaemon"),
      ],
      swiftSettings: settings),
    /// todosd end to end: the daemon, its workers and tcactl as processes.
    .testTarget(
      name: "TodosDaemonTests",
      dependencies: [
        "todosd", "Todos",
        .product(name: "JSON", package: "storedaemon"),
        .product(name: "ComposableTesting", package: "storedaemon"),
      ],
      swiftSettings: settings),
  ]
)
