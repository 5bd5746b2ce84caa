import ComposableCore
import FoundationEssentials

@testable import Features

/// Dates, records and hand-written storage documents shared by the BMI tests.
/// Documents are spelled out as JSON text, not produced by the code under test.
enum BMIFixtures {
  /// 2023-11-14T22:13:20Z, the date every save in the tests sees.
  static let now = Date(timeIntervalSince1970: 1_700_000_000)
  /// One day before ``now``.
  static let yesterday = Date(timeIntervalSince1970: 1_700_000_000 - 86_400)

  static let firstID = UUID(counting: 0)

  /// The record saved from 170 cm and 70 kg with the first incrementing UUID.
  static let saved = BMIRecord(id: firstID, height: 170, weight: 70, date: now)
  static let older = BMIRecord(id: UUID(counting: 10), height: 180, weight: 90, date: yesterday)
  static let newer = BMIRecord(id: UUID(counting: 11), height: 160, weight: 45, date: now)

  /// The stored document of ``saved``, byte for byte.
  static let savedJSON =
    #"{"date":"2023-11-14T22:13:20.000Z","height":170,"id":"00000000-0000-0000-0000-000000000000","weight":70}"#

  /// A storage document with `json` under `key`.
  static func document(_ key: String, _ json: String) -> StorageDocument {
    StorageDocument(key: key, value: Data(json.utf8))
  }

  static let olderDocument = document(
    "00000000-0000-0000-0000-00000000000A",
    #"{"date":"2023-11-13T22:13:20Z","height":180,"id":"00000000-0000-0000-0000-00000000000A","weight":90}"#)
  static let newerDocument = document(
    "00000000-0000-0000-0000-00000000000B",
    #"{"date":"2023-11-14T22:13:20Z","height":160,"id":"00000000-0000-0000-0000-00000000000B","weight":45}"#)
}
