import ComposableCore
import ComposableTesting
import Testing

@testable import Features

/// Seed 003's parent: the counter scoped in, the settings screen presented
/// with `ifLet`, saved only when valid.
@Suite struct ParentTests {
  @Test func theCounterRunsInsideTheParent() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.counter(.incrementButtonTapped)) { $0.counter.count = 1 }
  }

  @Test func savingTheSettingsKeepsTheDraftAndClosesTheScreen() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.settingsButtonTapped) { $0.settings = Settings.State(draft: Preferences()) }
    store.send(.settings(.presented(.binding(.set(\.draft.displayName, "Ada"))))) {
      $0.settings?.draft.displayName = "Ada"
    }
    store.send(.settings(.presented(.binding(.set(\.draft.theme, .dark))))) { $0.settings?.draft.theme = .dark }
    store.send(.settings(.presented(.saveButtonTapped))) {
      $0.preferences = Preferences(displayName: "Ada", theme: .dark)
      $0.settings = nil
    }
  }

  @Test func anInvalidDraftStaysOpenWithItsError() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.settingsButtonTapped) { $0.settings = Settings.State(draft: Preferences()) }
    store.send(.settings(.presented(.binding(.set(\.draft.displayName, "  "))))) {
      $0.settings?.draft.displayName = "  "
      $0.settings?.displayNameError = "Enter a name."
    }
    store.send(.settings(.presented(.saveButtonTapped)))
    let long = String(repeating: "x", count: Preferences.maximumNameLength + 1)
    store.send(.settings(.presented(.binding(.set(\.draft.displayName, long))))) {
      $0.settings?.draft.displayName = long
      $0.settings?.displayNameError = "Use at most 40 characters."
    }
  }

  @Test func cancellingOrDismissingKeepsThePreferences() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    store.send(.settingsButtonTapped) { $0.settings = Settings.State(draft: Preferences()) }
    store.send(.settings(.presented(.binding(.set(\.draft.isHapticFeedbackEnabled, false))))) {
      $0.settings?.draft.isHapticFeedbackEnabled = false
    }
    store.send(.settings(.presented(.cancelButtonTapped))) { $0.settings = nil }
    store.send(.settingsButtonTapped) { $0.settings = Settings.State(draft: Preferences()) }
    store.send(.settings(.dismiss)) { $0.settings = nil }
    #expect(store.state.preferences == Preferences())
  }

  @Test func aSettingsActionWhileClosedIsReportedAndDropped() {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    withKnownIssue {
      store.send(.settings(.presented(.saveButtonTapped)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("nothing is presented at settings") }
    }
  }
}
