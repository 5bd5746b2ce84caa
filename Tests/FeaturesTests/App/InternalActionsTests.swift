import ComposableCore
import Testing
import Wire

@testable import Features

/// Which of the app's actions only effects and storedaemon send: every
/// response, failure, timer landing and recovery, and nothing a person does.
@Suite struct InternalActionsTests {
  let schema = AppFeature.Action.actionSchema

  /// Every internal path and who sends it, as the `actions` list marks them.
  static let internalPaths: [String: String] = [
    "counter.numberFactResponse": "the HTTP effect",
    "counter.numberFactFailed": "the HTTP effect",
    "counter.recovered": "the daemon after a restart",
    "dice.internal.rollCompleted": "the timer effect",
    "dice.internal.rollFailed": "the timer effect",
    "dice.internal.startAnimation": "the dice when a roll starts",
    "dice.internal.recovered": "the daemon after a restart",
    "products.productsResponse": "the HTTP effect",
    "products.productsFailed": "the HTTP effect",
    "products.recovered": "the daemon after a restart",
    "cart.orderPlaced": "the HTTP effect",
    "cart.orderFailed": "the HTTP effect",
    "cart.recovered": "the daemon after a restart",
    "profile.profileResponse": "the HTTP effect",
    "profile.profileFailed": "the HTTP effect",
    "profile.recovered": "the daemon after a restart",
    "bmi.input.saved": "the storage effect",
    "bmi.input.saveFailed": "the storage effect",
    "bmi.input.recovered": "the daemon after a restart",
    "bmi.history.loaded": "the storage effect",
    "bmi.history.loadFailed": "the storage effect",
    "bmi.history.deleteFailed": "the storage effect",
    "bmi.history.recovered": "the daemon after a restart",
    "bmi.recovered": "the daemon after a restart",
    "search.debounceElapsed": "the timer effect",
    "search.searchResponse": "the HTTP effect",
    "search.searchFailed": "the HTTP effect",
    "search.recovered": "the daemon after a restart",
    "parent.counter.numberFactResponse": "the HTTP effect",
    "parent.counter.numberFactFailed": "the HTTP effect",
    "parent.counter.recovered": "the daemon after a restart",
    "recovered": "the daemon after a restart",
  ]

  @Test func theListingMarksExactlyTheActionsThatAnswerEffects() {
    var marked: [String: String] = [:]
    for entry in schema.allPaths where entry.isInternal {
      marked[entry.path] = entry.sentBy
    }
    #expect(marked == Self.internalPaths)
    #expect(schema.clientPaths.count + Self.internalPaths.count == schema.allPaths.count)
  }

  /// The daemon judges a sent action by its JSON: each sample is found to be
  /// sent by whom its entry says.
  @Test func everySamplesSenderIsFoundInItsJSON() {
    for sample in schema.samples {
      #expect(schema.internalSender(of: sample.action)?.description == sample.entry.sentBy, "\(sample.entry.path)")
    }
  }

  /// The recovery actions, the `recovered` cases, are exactly those marked
  /// as sent by the daemon after a restart: sent while an effect is really
  /// in flight, one would start it twice or fail an order still being placed.
  @Test func theRecoveryActionsAreThoseStoredaemonSends() {
    for sample in schema.samples {
      #expect(
        sample.entry.path.hasSuffix("recovered") == (schema.internalSender(of: sample.action) == .recovery),
        "\(sample.entry.path)")
    }
  }
}
