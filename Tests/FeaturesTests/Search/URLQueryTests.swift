import Testing

@testable import Features

/// The percent-encoding of the search URL's query.
@Suite struct URLQueryTests {
  @Test(arguments: [
    ("cat", "cat"),
    ("AZaz09-._~", "AZaz09-._~"),
    ("cats & dogs", "cats%20%26%20dogs"),
    ("a+b=c", "a%2Bb%3Dc"),
    ("100%", "100%25"),
    ("#tag?x/y", "%23tag%3Fx%2Fy"),
    ("café", "caf%C3%A9"),
    ("😺", "%F0%9F%98%BA"),
    ("", ""),
  ])
  func percentEncodesEverythingButUnreservedCharacters(text: String, encoded: String) {
    #expect(URLQuery.percentEncode(text) == encoded)
  }

  @Test func joinsPairsInOrder() {
    #expect(URLQuery.string(["q": "a&b=c", "limit": "25", "api key": "k"]) == "q=a%26b%3Dc&limit=25&api%20key=k")
  }
}
