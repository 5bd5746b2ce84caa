/// The signed-in customer, as fakestoreapi.com's `GET /users/{id}` describes it.
///
/// Only the fields the store shows are kept; the API also sends `password`,
/// `address` and `__v`, which are ignored (the password is never stored).
public struct UserProfile: Equatable, Hashable, Sendable, Codable, Identifiable {
  public var id: Int
  public var email: String
  /// The login name; optional, since the store only shows it when present.
  public var username: String?
  public var name: PersonName
  public var phone: String?

  public init(id: Int, email: String, username: String? = nil, name: PersonName, phone: String? = nil) {
    self.id = id
    self.email = email
    self.username = username
    self.name = name
    self.phone = phone
  }

  /// fakestoreapi.com's user 1, for previews and tests.
  public static let sample = UserProfile(
    id: 1, email: "john@gmail.com", username: "johnd", name: PersonName(firstname: "john", lastname: "doe"),
    phone: "1-570-236-7033")
}
