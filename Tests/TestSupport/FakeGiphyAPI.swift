import Foundation

/// The fake GIF search: Giphy's `GET /v1/gifs/search` in Giphy's JSON shape,
/// answering GIFs derived from the query, so a test can tell which query's
/// results landed.
enum FakeGiphyAPI {
  /// Giphy's default and largest page sizes.
  static let defaultLimit = 25
  static let maximumLimit = 50

  /// The id of the `index`-th GIF (from 1) found for `query`: the query's
  /// slug and the index, e.g. `cats-1` for "Cats", `cats-dogs-2` for
  /// "cats & dogs". Non-ASCII characters are written as `u` and their hex
  /// code point, so "café" gives `cafue9-1`.
  static func gifID(query: String, index: Int) -> String {
    "\(slug(query))-\(index)"
  }

  /// The answer to a search request, given the key the fake expects and how
  /// many GIFs it finds for any query.
  static func respond(to request: RecordedRequest, apiKey: String, resultCount: Int) -> TestHTTPResponse {
    guard let key = request.query("api_key"), !key.isEmpty else {
      return error(401, "No API key found in request.")
    }
    guard key == apiKey else { return error(403, "Invalid authentication credentials") }
    guard let query = request.query("q"), !query.isEmpty else { return error(400, "Validation error: q is required") }
    let limit = request.query("limit").flatMap(Int.init) ?? defaultLimit
    let offset = request.query("offset").flatMap(Int.init) ?? 0
    guard (1...maximumLimit).contains(limit), offset >= 0 else {
      return error(400, "Validation error: limit must be 1–\(maximumLimit) and offset at least 0")
    }
    let count = max(0, min(limit, resultCount - offset))
    let gifs = (0..<count).map { gif(query: query, index: offset + $0 + 1) }
    let page = SearchPage(
      data: gifs, pagination: Pagination(totalCount: resultCount, count: count, offset: offset),
      meta: Meta(status: 200, msg: "OK", responseID: "fake-\(slug(query))"))
    do {
      return try .json(encoding: page)
    } catch {
      return .text("could not encode the search page: \(error)", status: 500)
    }
  }

  /// Giphy's error shape: `{"data":[],"meta":{"msg":…,"status":…,"response_id":""}}`.
  static func error(_ status: Int, _ message: String) -> TestHTTPResponse {
    let page = SearchPage(
      data: [], pagination: nil, meta: Meta(status: status, msg: message, responseID: ""))
    return (try? .json(encoding: page, status: status)) ?? .text(message, status: status)
  }

  /// The `index`-th GIF for `query`. The first has an uploader (`user`); the
  /// others have none, as many Giphy GIFs do.
  static func gif(query: String, index: Int) -> GIF {
    let id = gifID(query: query, index: index)
    let hasUser = index == 1
    return GIF(
      id: id, url: "https://giphy.com/gifs/\(id)", slug: id, embedURL: "https://giphy.com/embed/\(id)",
      username: hasUser ? "fakegiphy" : "", title: "\(query) GIF \(index)",
      images: Images(
        original: Rendition(url: "https://media.giphy.com/media/\(id)/giphy.gif", width: "480", height: "270"),
        fixedHeight: Rendition(url: "https://media.giphy.com/media/\(id)/200.gif", width: "356", height: "200")),
      user: hasUser
        ? User(
          avatarURL: "https://media.giphy.com/avatars/fakegiphy.gif", profileURL: "https://giphy.com/fakegiphy/",
          username: "fakegiphy", displayName: "Fake Giphy")
        : nil)
  }

  /// The query in lower case, runs of anything but letters and digits as one `-`.
  static func slug(_ query: String) -> String {
    var slug = ""
    for scalar in query.unicodeScalars {
      if scalar.isASCII, let character = Character(scalar).lowercased().first, character.isLetter || character.isNumber
      {
        slug.append(character)
      } else if !scalar.isASCII {
        slug += "u" + String(scalar.value, radix: 16)
      } else if !slug.isEmpty, slug.last != "-" {
        slug.append("-")
      }
    }
    while slug.last == "-" { slug.removeLast() }
    return slug.isEmpty ? "gif" : slug
  }

  // MARK: Giphy's JSON shapes

  struct SearchPage: Encodable {
    var data: [GIF]
    var pagination: Pagination?
    var meta: Meta
  }

  struct Pagination: Encodable {
    var totalCount: Int
    var count: Int
    var offset: Int

    enum CodingKeys: String, CodingKey {
      case totalCount = "total_count"
      case count, offset
    }
  }

  struct Meta: Encodable {
    var status: Int
    var msg: String
    var responseID: String

    enum CodingKeys: String, CodingKey {
      case status, msg
      case responseID = "response_id"
    }
  }

  struct GIF: Encodable {
    var type = "gif"
    var id: String
    var url: String
    var slug: String
    var embedURL: String
    var username: String
    var source = ""
    var title: String
    var rating = "g"
    var isSticker = 0
    var importDatetime = "2021-06-01 12:00:00"
    var trendingDatetime = "0000-00-00 00:00:00"
    var images: Images
    var user: User?

    enum CodingKeys: String, CodingKey {
      case type, id, url, slug, username, source, title, rating, images, user
      case embedURL = "embed_url"
      case isSticker = "is_sticker"
      case importDatetime = "import_datetime"
      case trendingDatetime = "trending_datetime"
    }
  }

  struct Images: Encodable {
    var original: Rendition
    var fixedHeight: Rendition

    enum CodingKeys: String, CodingKey {
      case original
      case fixedHeight = "fixed_height"
    }
  }

  /// Giphy sends sizes as numeric strings.
  struct Rendition: Encodable {
    var url: String
    var width: String
    var height: String
  }

  struct User: Encodable {
    var avatarURL: String
    var profileURL: String
    var username: String
    var displayName: String
    var description = ""
    var isVerified = false

    enum CodingKeys: String, CodingKey {
      case username, description
      case avatarURL = "avatar_url"
      case profileURL = "profile_url"
      case displayName = "display_name"
      case isVerified = "is_verified"
    }
  }
}
