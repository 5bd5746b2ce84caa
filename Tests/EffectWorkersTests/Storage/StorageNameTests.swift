import Testing

@testable import EffectWorkers

@Suite struct StorageNameTests {
  @Test(arguments: [
    ("abc-DEF_123", "abc-DEF_123"),
    ("../x", "%2E%2E%2Fx"),
    ("a/b", "a%2Fb"),
    (".", "%2E"),
    ("..", "%2E%2E"),
    (".hidden", "%2Ehidden"),
    (".tmp-123", "%2Etmp-123"),
    ("100%", "100%25"),
    ("é", "%C3%A9"),
    ("a b\n", "a%20b%0A"),
    ("\u{0}", "%00"),
  ])
  func encodingLeavesOnlySafeFileNames(_ name: String, _ fileName: String) {
    #expect(StorageName.encode(name) == fileName)
    #expect(StorageName.decode(fileName) == name)
  }

  @Test func everyNameRoundTripsAndNeverEscapesItsDirectory() {
    var names = ["Ünïcødé 🎉", "CON", "key.json", "a\\b", "~", "-", "_", "%2E"]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let scalars = (0..<Int.random(in: 1...20, using: &generator)).compactMap { _ in
        Unicode.Scalar(UInt32.random(in: 0...0x2FF, using: &generator))
      }
      if !scalars.isEmpty { names.append(String(String.UnicodeScalarView(scalars))) }
    }
    for name in names {
      let encoded = StorageName.encode(name)
      #expect(StorageName.decode(encoded) == name)
      #expect(!encoded.contains("/"))
      #expect(!encoded.hasPrefix("."))
      #expect(encoded.utf8.allSatisfy { $0 < 0x80 })
    }
  }

  /// Files the worker did not write as documents are not mistaken for them.
  @Test(arguments: [".tmp-AbC123", ".lock", "", "%", "%2", "%zz", "%2e", "%41", "a.b", "%FF"])
  func namesNoKeyEncodesToAreNotDecoded(_ fileName: String) {
    #expect(StorageName.decode(fileName) == nil)
  }

  @Test func lengthsAreBoundedSoEveryEncodingFitsAFileName() {
    #expect(StorageName.problem(with: "", what: "key") == "the key is empty")
    #expect(StorageName.problem(with: String(repeating: "k", count: 80), what: "key") == nil)
    #expect(
      StorageName.problem(with: String(repeating: "k", count: 81), what: "namespace")
        == "the namespace is 81 bytes of UTF-8; at most 80 are allowed")
    let longest = String(repeating: "é", count: 40)
    #expect(StorageName.problem(with: longest, what: "key") == nil)
    #expect(StorageName.encode(longest).utf8.count == 240)
  }
}
