import ComposableCore
import FoundationEssentials
import JSON

@testable import Features

/// Values the GIF search tests share: sample GIFs and the exact requests the
/// feature must make against `AppConfiguration.test`.
enum GIFSearchFixtures {
  /// The debounce timer with the default interval.
  static let debounce = EffectRequest.timer(.after(.seconds(2)))

  /// The search request for `encodedQuery` (already percent-encoded).
  static func search(_ encodedQuery: String) -> EffectRequest {
    .http(
      HTTPRequest(
        method: "GET",
        url: "https://gifs.test/v1/gifs/search?api_key=test-key&q=\(encodedQuery)&limit=25&offset=0&rating=g&lang=en",
        headers: [HTTPHeader("Accept", "application/json")], timeout: .seconds(15)))
  }

  /// The URL of ``search(_:)``, as failure messages name it.
  static func searchURL(_ encodedQuery: String) -> String {
    guard case .http(let request) = search(encodedQuery) else { return "" }
    return request.url
  }

  /// A GIF with id `id`, 480×270 unless told otherwise.
  static func gif(_ id: String, width: String = "480", height: String = "270", user: Gif.User? = nil) -> Gif {
    Gif(
      id: id, url: "https://giphy.com/gifs/\(id)", username: user?.username ?? "", user: user,
      images: Gif.Images(
        original: Gif.Rendition(url: "https://media.giphy.com/media/\(id)/giphy.gif", width: width, height: height)))
  }

  /// A 200 answer listing `gifs`.
  static func found(_ gifs: [Gif]) throws -> EffectReply {
    .http(try HTTPResponse(status: 200, json: GifSearchResponse(data: gifs)))
  }

  /// The failure the core's `.http(_:decoding:then:)` reports when `body`,
  /// answered to `url`, is not a `GifSearchResponse` (mirrors its message).
  static func decodingFailure(url: String, body: Data) -> EffectFailure {
    do {
      _ = try JSONValueDecoder.decode(GifSearchResponse.self, fromJSON: body)
      return EffectFailure(.decoding, "unexpectedly decoded")
    } catch {
      return EffectFailure(
        .decoding, "\(HTTPRequest.get(url).displayURL): body is not a valid GifSearchResponse: \(error)")
    }
  }
}
