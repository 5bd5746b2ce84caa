import ComposableCore
import FoundationEssentials
import JSON

/// How BMI records are kept by the storage worker: one JSON document per
/// record in the namespace "bmi-history", keyed by the record's id.
///
/// A document is the record with sorted keys and an ISO 8601 date with
/// milliseconds (``JSONDate``), e.g.
/// `{"date":"2023-11-14T22:13:20.000Z","height":170,"id":"…","weight":70}`,
/// so it can be read and written by hand through `tcactl`; a document
/// written by an earlier build, its date in whole seconds, reads the same.
public enum BMIHistoryStorage {
  /// The storage namespace of the history.
  public static let namespace = "bmi-history"
  /// The storage worker as a sentence names it (``EffectFailure/sentence(about:)``).
  static let serviceName = "the history's storage"

  /// The storage key of `record`.
  public static func key(for record: BMIRecord) -> String { record.id.uuidString }

  /// The document bytes of `record`.
  public static func encode(_ record: BMIRecord) throws -> Data {
    Data(CanonicalJSON.encode(try JSONValue(encoding: record)))
  }

  /// The record a document holds, or an error saying why it holds none. A
  /// document whose id differs from its key is refused, because deleting it by
  /// its id would then miss it.
  public static func decode(_ document: StorageDocument) throws -> BMIRecord {
    let record: BMIRecord
    do {
      record = try JSONValueDecoder.decode(BMIRecord.self, fromJSON: document.value)
    } catch is JSONParseError {
      throw BMIStorageError(message: "not valid JSON")
    } catch let error as DecodingError {
      throw BMIStorageError(message: describe(error))
    }
    guard key(for: record) == document.key else {
      throw BMIStorageError(message: "its id \(record.id.uuidString) does not match its key")
    }
    return record
  }

  /// Decodes every document, setting aside the ones that do not decode and
  /// a key listed a second time: each is described as "key: reason", so one
  /// bad document never hides the rest.
  public static func decode(_ documents: [StorageDocument]) -> (records: [BMIRecord], unreadable: [String]) {
    var records: [BMIRecord] = []
    var unreadable: [String] = []
    var keys = Set<String>()
    for document in documents {
      guard keys.insert(document.key).inserted else {
        unreadable.append("\(document.key): listed twice by the storage worker (the first is kept)")
        continue
      }
      do {
        records.append(try decode(document))
      } catch {
        unreadable.append("\(document.key): \(error)")
      }
    }
    return (records, unreadable)
  }

  /// A short, stable account of a decoding error (the full description repeats
  /// the coding path and underlying errors).
  static func describe(_ error: DecodingError) -> String {
    func path(_ context: DecodingError.Context) -> String {
      context.codingPath.map(\.stringValue).joined(separator: ".")
    }
    switch error {
    case .keyNotFound(let key, _):
      return "missing field '\(key.stringValue)'"
    case .typeMismatch(let type, let context):
      return "field '\(path(context))' is not \(type)"
    case .valueNotFound(let type, let context):
      return "field '\(path(context))' has no \(type) value"
    case .dataCorrupted(let context):
      let field = path(context)
      return field.isEmpty ? "not valid JSON" : "field '\(field)' is invalid: \(context.debugDescription)"
    @unknown default:
      return "\(error)"
    }
  }
}
