/// One search result as the search shows it: the seed's `GifItem.State`, with
/// Giphy's string sizes parsed into numbers.
public struct GifCard: Equatable, Sendable, Codable, Identifiable {
  /// The GIF's Giphy id; a page of results holds each id once.
  public var id: String
  /// The address of the original `.gif` file.
  public var gifURL: String
  /// The original's width in pixels; 0 when Giphy's value is not a number.
  public var width: Double
  /// The original's height in pixels; 0 when Giphy's value is not a number.
  public var height: Double
  /// The uploader, shown under the GIF when present.
  public var user: Gif.User?

  public init(id: String, gifURL: String, width: Double, height: Double, user: Gif.User? = nil) {
    self.id = id
    self.gifURL = gifURL
    self.width = width
    self.height = height
    self.user = user
  }

  /// The card for `gif` (the seed's `GifItem.State.Mapper.map`).
  public init(_ gif: Gif) {
    self.init(
      id: gif.id, gifURL: gif.images.original.url,
      width: Double(gif.images.original.width) ?? 0, height: Double(gif.images.original.height) ?? 0,
      user: gif.user)
  }

  /// Height over width, to size the card in a grid column; 0 when the width is unknown.
  public var sizeRatio: Double { width > 0 ? height / width : 0 }
}
