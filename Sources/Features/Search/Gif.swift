/// One GIF as Giphy's search API describes it: the fields the search shows,
/// under Giphy's own (snake_case) JSON names.
///
/// Giphy sends many more fields (`title`, `rating`, `slug`, a dozen image
/// renditions, ...); they are ignored. Unlike the seed, `import_datetime` and
/// `trending_datetime` are not modelled: nothing reads them, and requiring them
/// would only let one odd GIF fail the decoding of a whole page.
public struct Gif: Equatable, Sendable, Codable, Identifiable {
  /// Giphy's id of the GIF, e.g. `"FiGiRei2ICzzG"`.
  public var id: String
  /// The GIF's page on giphy.com.
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

  /// The uploader's public profile, shown on a card.
  public struct User: Equatable, Sendable, Codable {
    /// The avatar image's address.
    public var avatarURL: String
    /// The account name, e.g. `"giphystudios"`.
    public var username: String
    /// The name shown to people, e.g. `"GIPHY Studios"`.
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
    /// The width in pixels, as a string, e.g. `"480"`.
    public var width: String
    /// The height in pixels, as a string, e.g. `"270"`.
    public var height: String

    public init(url: String, width: String, height: String) {
      self.url = url
      self.width = width
      self.height = height
    }
  }
}
