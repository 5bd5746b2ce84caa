/// A user's name as fakestoreapi.com nests it in `/users/{id}`:
/// `{"firstname": "john", "lastname": "doe"}` (lowercase in the API's data).
public struct PersonName: Equatable, Hashable, Sendable, Codable {
  public var firstname: String
  public var lastname: String

  public init(firstname: String, lastname: String) {
    self.firstname = firstname
    self.lastname = lastname
  }

  /// "John Doe": each word of both names capitalized, as the profile shows it.
  public var displayName: String {
    [firstname, lastname].map(Self.capitalized).filter { !$0.isEmpty }.joined(separator: " ")
  }

  /// Upper-cases the first letter of every word and lower-cases the rest.
  static func capitalized(_ text: String) -> String {
    text.split(separator: " ").map { word in word.prefix(1).uppercased() + word.dropFirst().lowercased() }
      .joined(separator: " ")
  }
}
