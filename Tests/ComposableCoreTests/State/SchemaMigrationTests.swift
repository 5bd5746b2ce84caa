import ComposableCore
import JSON
import Testing

/// Typed migrations between an app's schemas (docs/HOSTING.md, "Changing
/// the state").
@Suite struct SchemaMigrationTests {
  enum V1 {
    struct State: Decodable { var title: String }
    enum Action: Decodable {
      case rename(String)
      case paint(String)
    }
  }
  enum V2 {
    struct State: Codable, Equatable { var name: String }
    enum Action: Codable, Equatable { case rename(String) }
  }
  struct V3State: Codable, Equatable {
    var name: String
    var visits: Int
  }

  static let oneToTwo = SchemaMigration(
    from: 1, state: { (old: V1.State) in V2.State(name: old.title) },
    action: { (old: V1.Action) -> V2.Action? in
      switch old {
      case .rename(let title): .rename(title)
      case .paint: nil
      }
    })
  static let twoToThree = SchemaMigration(from: 2, state: { (old: V2.State) in V3State(name: old.name, visits: 0) })
  static let schema = AppSchema(version: 3, migrations: [twoToThree, oneToTwo])

  @Test func dataIsBroughtThroughEachStepInOrder() throws {
    #expect(try Self.schema.steps(from: 1).map(\.from) == [1, 2])
    #expect(try Self.schema.steps(from: 3).isEmpty)
    #expect(
      try Self.schema.migrate(state: .object(["title": .string("Attic")]), from: 1)
        == .object(["name": .string("Attic"), "visits": .int(0)]))
    #expect(
      try Self.schema.migrate(action: .object(["rename": .string("Den")]), from: 1)
        == .object(["rename": .string("Den")]))
    #expect(try Self.schema.migrate(action: .object(["paint": .string("oak")]), from: 1) == nil)
    // A step that changes only the state keeps each action as it is.
    #expect(try Self.schema.migrate(action: .string("visit"), from: 2) == .string("visit"))
  }

  @Test func whatCannotBeMigratedIsNamed() {
    #expect(throws: SchemaMigrationError.newerThanBuild(data: 4, build: 3)) { try Self.schema.steps(from: 4) }
    #expect(
      SchemaMigrationError.newerThanBuild(data: 4, build: 3).description
        == "the data is in schema 4, newer than this build's schema 3: run a build of schema 4 or newer")
    let gap = AppSchema(version: 3, migrations: [Self.oneToTwo])
    #expect(throws: SchemaMigrationError.missingMigration(from: 2)) { try gap.steps(from: 1) }
    #expect(
      SchemaMigrationError.missingMigration(from: 2).description
        == "there is no migration from schema 2 to 3: add SchemaMigration(from: 2, …) to the app's migrations")
    do {
      _ = try Self.schema.migrate(state: .object(["name": .string("not schema 1")]), from: 1)
      Issue.record("a state that is not schema 1's is refused")
    } catch {
      guard case .failed(1, "the state", let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(reason.contains("title"), "the reason names what the old type lacks: \(reason)")
      #expect(error.description.hasPrefix("the migration from schema 1 to 2 failed on the state: "))
    }
  }
}
