/// The body of Giphy's `GET /v1/gifs/search` answer: the page of GIFs found.
///
/// Giphy also sends `pagination` and `meta`; the search reads neither (it asks
/// for one page and learns about failures from the HTTP status).
public struct GifSearchResponse: Equatable, Sendable, Codable {
  /// The GIFs found, most relevant first.
  public var data: [Gif]

  public init(data: [Gif]) {
    self.data = data
  }
}
