/// One GIF as Giphy's search API describes it: the fields the search shows,
/// under Giphy's own (snake_case) JSON names.
///
/// Giphy sends many more fields (`title`, `rating`, `slug`, a dozen image
/// renditions, ...); they are ignored. Unlike the seed, `import_datetime` and
/// `trending_datetime` are not modelled: nothing reads them, and requiring them
/// would only let one odd GIF fail the decoding of a whole page.
///
/// For the same reason only what a card cannot do without is required: the
/// GIF's `id` and its original rendition's `url`. Every other field decodes
/// as empty when Giphy leaves it out (`username`, `url`, a rendition's
/// `width` and `height`, a user's `avatar_url`, `username` and
/// `display_name`), and `user` as `nil`, so one GIF missing one of them
/// never fails the page.
public struct Gif: Equatable, Sendable, Codable, Identifiable {
  /// Giphy's id of the GIF, e.g. `"FiGiRei2ICzzG"`.
  public var id: String
  /// The GIF's page on giphy.com; empty when Giphy has none.
  public var url: String
  /// The uploader's username; empty when Giphy has none.
  public var username: String
  /// The uploader's profile, when the GIF has one.
  public var user: User?
  /// The GIF's renditions; the search uses the original.
  public var images: Images

  public init(id: String, url: String, username: String = "", user: User? = nil, images: Images) {
    self.id = id
    self.url = url
    self.username = username
    self.user = user
    self.images = images
  }

  enum CodingKeys: String, CodingKey {
    case id, url, username, user, images
  }

  /// Decodes Giphy's JSON: `id` and `images` are required, the rest may be
  /// left out (or `null`) and is then empty.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    id = try container.decode(String.self, forKey: .id)
    url = try container.decodeIfPresent(String.self, forKey: .url) ?? ""
    username = try container.decodeIfPresent(String.self, forKey: .username) ?? ""
    user = try container.decodeIfPresent(User.self, forKey: .user)
    images = try container.decode(Images.self, forKey: .images)
  }

  /// The uploader's public profile, shown on a card.
  public struct User: Equatable, Sendable, Codable {
    /// The avatar image's address; empty when Giphy has none.
    public var avatarURL: String
    /// The account name, e.g. `"giphystudios"`; empty when Giphy has none.
    public var username: String
    /// The name shown to people, e.g. `"GIPHY Studios"`; empty when Giphy has none.
    public var displayName: String

    public init(avatarURL: String, username: String, displayName: String) {
      self.avatarURL = avatarURL
      self.username = username
      self.displayName = displayName
    }

    enum CodingKeys: String, CodingKey {
      case avatarURL = "avatar_url"
      case username
      case displayName = "display_name"
    }

    /// Decodes Giphy's JSON; each field left out (or `null`) is empty.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      avatarURL = try container.decodeIfPresent(String.self, forKey: .avatarURL) ?? ""
      username = try container.decodeIfPresent(String.self, forKey: .username) ?? ""
      displayName = try container.decodeIfPresent(String.self, forKey: .displayName) ?? ""
    }
  }

  /// The renditions Giphy offers of a GIF; only the original is modelled.
  public struct Images: Equatable, Sendable, Codable {
    /// The GIF as uploaded.
    public var original: Rendition

    public init(original: Rendition) {
      self.original = original
    }
  }

  /// One rendition of a GIF. Giphy sends the sizes as numeric strings.
  public struct Rendition: Equatable, Sendable, Codable {
    /// The address of the `.gif` file.
    public var url: String
    /// The width in pixels, as a string, e.g. `"480"`; empty when Giphy has none.
    public var width: String
    /// The height in pixels, as a string, e.g. `"270"`; empty when Giphy has none.
    public var height: String

    public init(url: String, width: String, height: String) {
      self.url = url
      self.width = width
      self.height = height
    }

    enum CodingKeys: String, CodingKey {
      case url, width, height
    }

    /// Decodes Giphy's JSON: `url` is required; a size left out (or `null`) is empty.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.container(keyedBy: CodingKeys.self)
      url = try container.decode(String.self, forKey: .url)
      width = try container.decodeIfPresent(String.self, forKey: .width) ?? ""
      height = try container.decodeIfPresent(String.self, forKey: .height) ?? ""
    }
  }
}
