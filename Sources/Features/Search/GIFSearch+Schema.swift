import ActionLanguage
import ComposableCore

extension GIFSearch.Action: DescribedAction {
  /// `search.textChanged 'funny cats'`, `search.retryButtonTapped`, …
  public static var actionSchema: ActionSchema {
    ActionSchema(cases: [
      ActionCase(
        "textChanged", "The search text changed: searches once typing pauses", .unlabeled("text", String.self)),
      ActionCase("debounceElapsed", "Typing paused: searches for the text", sentBy: .timerEffect),
      ActionCase("retryButtonTapped", "Searches for the current query again"),
      ActionCase(
        "searchResponse", "The search found these GIFs", sentBy: .httpEffect,
        .unlabeled("gifs", .json([Gif].self, sample: [sampleGif]))),
      ActionCase(
        "searchFailed", "The search failed", sentBy: .httpEffect, .unlabeled("failure", EffectFailure.self)),
      ActionCase("recovered", "Starts the search that was in flight or pending", sentBy: .recovery),
    ])
  }

  /// The case's name; exhaustive, so a new case must be described above.
  public var actionCaseName: String {
    switch self {
    case .textChanged: "textChanged"
    case .debounceElapsed: "debounceElapsed"
    case .retryButtonTapped: "retryButtonTapped"
    case .searchResponse: "searchResponse"
    case .searchFailed: "searchFailed"
    case .recovered: "recovered"
    }
  }

  /// A GIF as Giphy describes one, for examples and tests.
  private static let sampleGif = Gif(
    id: "FiGiRei2ICzzG", url: "https://giphy.com/gifs/FiGiRei2ICzzG", username: "giphystudios",
    images: Gif.Images(
      original: Gif.Rendition(url: "https://media.giphy.com/media/FiGiRei2ICzzG/giphy.gif", width: "480", height: "270")
    ))
}
