import ComposableCore
import ComposableTesting
import FoundationEssentials
import Testing

@testable import Features

/// Giphy's JSON, as the search decodes it, and the cards made from it.
@Suite struct GifTests {
  typealias F = GIFSearchFixtures

  /// A trimmed real answer of Giphy's search: extra fields, a GIF with a user
  /// and one without, `pagination` and `meta`.
  static let giphyAnswer = #"""
    {
      "data": [
        {
          "type": "gif", "id": "JIX9t2j0ZTN9S", "url": "https://giphy.com/gifs/cat-JIX9t2j0ZTN9S",
          "slug": "cat-JIX9t2j0ZTN9S", "title": "Cat GIF", "rating": "g", "username": "giphystudios",
          "import_datetime": "2013-03-21 20:13:36", "trending_datetime": "0000-00-00 00:00:00",
          "user": {
            "avatar_url": "https://media.giphy.com/avatars/giphystudios/a.gif", "username": "giphystudios",
            "display_name": "GIPHY Studios", "profile_url": "https://giphy.com/giphystudios/", "is_verified": true
          },
          "images": {
            "original": {
              "height": "270", "width": "480", "size": "1534206", "frames": "12",
              "url": "https://media.giphy.com/media/JIX9t2j0ZTN9S/giphy.gif"
            },
            "fixed_height": { "height": "200", "width": "356", "url": "https://media.giphy.com/media/JIX9t2j0ZTN9S/200.gif" }
          }
        },
        {
          "type": "gif", "id": "mlvseq9yvZhba", "url": "https://giphy.com/gifs/mlvseq9yvZhba",
          "title": "", "rating": "g", "username": "",
          "images": {
            "original": { "height": "250", "width": "?", "url": "https://media.giphy.com/media/mlvseq9yvZhba/giphy.gif" }
          }
        }
      ],
      "pagination": { "total_count": 3462, "count": 2, "offset": 0 },
      "meta": { "status": 200, "msg": "OK", "response_id": "b0f1c2" }
    }
    """#

  static let studios = Gif.User(
    avatarURL: "https://media.giphy.com/avatars/giphystudios/a.gif", username: "giphystudios",
    displayName: "GIPHY Studios")

  static let decoded = [
    Gif(
      id: "JIX9t2j0ZTN9S", url: "https://giphy.com/gifs/cat-JIX9t2j0ZTN9S", username: "giphystudios", user: studios,
      images: Gif.Images(
        original: Gif.Rendition(
          url: "https://media.giphy.com/media/JIX9t2j0ZTN9S/giphy.gif", width: "480", height: "270"))),
    Gif(
      id: "mlvseq9yvZhba", url: "https://giphy.com/gifs/mlvseq9yvZhba", username: "",
      images: Gif.Images(
        original: Gif.Rendition(url: "https://media.giphy.com/media/mlvseq9yvZhba/giphy.gif", width: "?", height: "250")
      )),
  ]

  @Test func aRealGiphyAnswerLandsAsCards() {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    store.respond(
      to: F.search("cat"),
      with: .http(
        HTTPResponse(
          status: 200, headers: [HTTPHeader("Content-Type", "application/json")], body: Data(Self.giphyAnswer.utf8))))
    store.receive(.searchResponse(Self.decoded)) {
      $0.isLoading = false
      $0.results = [
        GifCard(
          id: "JIX9t2j0ZTN9S", gifURL: "https://media.giphy.com/media/JIX9t2j0ZTN9S/giphy.gif", width: 480,
          height: 270, user: Self.studios),
        // Giphy's width is not a number: 0, as the seed's mapper does.
        GifCard(
          id: "mlvseq9yvZhba", gifURL: "https://media.giphy.com/media/mlvseq9yvZhba/giphy.gif", width: 0, height: 250),
      ]
    }
  }

  @Test func gifsEncodeUnderGiphysNames() throws {
    let json = String(decoding: try JSONEncoder().encode(Self.studios), as: UTF8.self)
    #expect(json.contains(#""avatar_url""#))
    #expect(json.contains(#""display_name""#))
    let roundTrip = try JSONDecoder().decode(
      GifSearchResponse.self, from: try JSONEncoder().encode(GifSearchResponse(data: Self.decoded)))
    #expect(roundTrip.data == Self.decoded)
  }

  /// Giphy leaves out fields it has no value for; the type's comments say
  /// each is then empty, and one GIF missing one must not fail the page.
  @Test func aGifWithoutItsOptionalFieldsDecodesWithThemEmpty() throws {
    let page = #"""
      {"data": [
        {"id": "full", "url": "https://giphy.com/gifs/full", "username": "ada",
         "user": {"avatar_url": "https://a/x.gif", "username": "ada", "display_name": "Ada"},
         "images": {"original": {"url": "https://media/full.gif", "width": "480", "height": "270"}}},
        {"id": "bare", "images": {"original": {"url": "https://media/bare.gif"}}},
        {"id": "nulls", "url": null, "username": null, "user": {"username": "bob"},
         "images": {"original": {"url": "https://media/nulls.gif", "width": null, "height": "90"}}}
      ]}
      """#
    let gifs = try JSONDecoder().decode(GifSearchResponse.self, from: Data(page.utf8)).data
    #expect(gifs.map(\.id) == ["full", "bare", "nulls"])
    let bare = Gif.Rendition(url: "https://media/bare.gif", width: "", height: "")
    #expect(gifs[1] == Gif(id: "bare", url: "", username: "", images: Gif.Images(original: bare)))
    #expect(gifs[2].url == "" && gifs[2].username == "")
    #expect(gifs[2].user == Gif.User(avatarURL: "", username: "bob", displayName: ""))
    #expect(gifs[2].images.original.width == "" && gifs[2].images.original.height == "90")
    #expect(GifCard(gifs[1]).width == 0 && GifCard(gifs[1]).sizeRatio == 0)
  }

  /// Without an id or the original's address there is no card to show: that
  /// page is still refused, and the search says it could not be read.
  @Test(arguments: [
    #"{"data": [{"images": {"original": {"url": "https://media/x.gif"}}}]}"#,
    #"{"data": [{"id": "x", "images": {"original": {}}}]}"#,
    #"{"data": [{"id": "x"}]}"#,
  ])
  func aGifWithoutAnIdOrAnImageFailsTheDecoding(_ page: String) {
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(GifSearchResponse.self, from: Data(page.utf8)) }
  }

  /// The search itself: a page where one GIF has no `username` lands whole.
  @Test func aResultWithoutAUsernameDoesNotFailTheSearch() {
    let store = TestStore(initialState: GIFSearch.State()) { GIFSearch() }
    store.send(.textChanged("cat")) { $0.text = "cat" }
    store.advance(by: .seconds(2))
    store.receive(.debounceElapsed) {
      $0.query = "cat"
      $0.isLoading = true
    }
    let page = #"""
      {"data": [
        {"id": "a", "url": "https://giphy.com/gifs/a", "username": "ada",
         "images": {"original": {"url": "https://media/a.gif", "width": "100", "height": "50"}}},
        {"id": "b", "url": "https://giphy.com/gifs/b",
         "images": {"original": {"url": "https://media/b.gif", "width": "100", "height": "100"}}}
      ]}
      """#
    store.respond(to: F.search("cat"), with: .http(HTTPResponse(status: 200, body: Data(page.utf8))))
    let gifs = [
      Gif(
        id: "a", url: "https://giphy.com/gifs/a", username: "ada",
        images: Gif.Images(original: Gif.Rendition(url: "https://media/a.gif", width: "100", height: "50"))),
      Gif(
        id: "b", url: "https://giphy.com/gifs/b",
        images: Gif.Images(original: Gif.Rendition(url: "https://media/b.gif", width: "100", height: "100"))),
    ]
    store.receive(.searchResponse(gifs)) {
      $0.isLoading = false
      $0.results = [
        GifCard(id: "a", gifURL: "https://media/a.gif", width: 100, height: 50),
        GifCard(id: "b", gifURL: "https://media/b.gif", width: 100, height: 100),
      ]
    }
  }

  @Test func sizeRatioIsHeightOverWidth() {
    #expect(GifCard(F.gif("a", width: "480", height: "240")).sizeRatio == 0.5)
    #expect(GifCard(F.gif("b", width: "0", height: "240")).sizeRatio == 0)
    #expect(GifCard(F.gif("c", width: "wide", height: "240")).sizeRatio == 0)
  }
}
