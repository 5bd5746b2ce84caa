// swift-tools-version: 6.0
import PackageDescription

/// TCA's Todos as an app of its own, built on storedaemon's reducer core: the
/// package depends on storedaemon by path, as any hosted app would.
let settings: [SwiftSetting] = [.swiftLanguageMode(.v6)]

let package = Package(
  name: "Todos",
  products: [
    .library(name: "Todos", targets: ["Todos"])
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
  ]
)
