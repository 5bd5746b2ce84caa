import ActionLanguage
import ComposableCore

extension GIFSearch.Action: DescribedAction {
  /// `search.textChanged 'funny cats'`, `search.retryButtonTapped`, …
  public static let describedCases: [DescribedCase<Self>] = [
    .init(.textChanged("funny cats"), "The search text changed: searches once typing pauses"),
    .init(.debounceElapsed, "Typing paused: searches for the text", sentBy: .timerEffect),
    .init(.retryButtonTapped, "Searches for the current query again"),
    .init(.searchResponse([sampleGif]), "The search found these GIFs", sentBy: .httpEffect),
    .init(.searchFailed(.example), "The search failed", sentBy: .httpEffect),
    .init(.recovered, "Starts the search that was in flight or pending", sentBy: .recovery),
  ]

  /// A GIF as Giphy describes one, for the described cases' samples.
  private static let sampleGif = Gif(
    id: "FiGiRei2ICzzG", url: "https://giphy.com/gifs/FiGiRei2ICzzG", username: "giphystudios",
    images: Gif.Images(
      original: Gif.Rendition(url: "https://media.giphy.com/media/FiGiRei2ICzzG/giphy.gif", width: "480", height: "270")
    ))
}
