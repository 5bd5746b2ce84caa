import ComposableCore
import Features
import Foundation
import JSON
import Journal
import Wire

/// State directories prepared before a daemon starts on them, written with
/// the journal's own API, as the daemon would have written them.
enum Fixtures {
  /// A state whose product list (which the cart sells from) holds `elements`
  /// products, ids 1…`elements`, as a snapshot at version 0.
  static func writeCollectionState(stateDirectory: String, elements: Int) throws(BenchError) {
    var state = AppFeature.State()
    let products = (1...elements).map { id in
      Product(
        id: id, title: "Product \(id)", price: Double(id % 1000) + 0.99,
        description: "A product of the benchmark's catalog, number \(id).", category: "bench",
        image: "https://example.com/products/\(id).png", rating: ProductRating(rate: 4.5, count: id % 500))
    }
    state.products.rows = IdentifiedArrayOf(uniqueElements: products.map { ProductRow.State(product: $0) })
    do {
      try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
      let journal = try JournalDirectory(path: stateDirectory + "/journal")
      try journal.writeSnapshot(version: 0, state: try CanonicalJSON.value(of: state), epoch: "bench")
    } catch {
      throw BenchError("cannot write the \(elements)-element state: \(error)")
    }
  }

  /// A journal of `records` counter increments after a snapshot of the
  /// initial state: recovering it leaves the count at `records`.
  static func writeJournal(stateDirectory: String, records: Int) throws(BenchError) {
    do {
      try FileManager.default.createDirectory(atPath: stateDirectory, withIntermediateDirectories: true)
      let journal = try JournalDirectory(path: stateDirectory + "/journal")
      try journal.writeSnapshot(version: 0, state: try CanonicalJSON.value(of: AppFeature.State()), epoch: "bench")
      let writer = try journal.openWriter(
        after: try journal.recover(), epoch: "bench", configuration: .init(sync: .never))
      let action = try CanonicalJSON.value(of: AppFeature.Action.counter(.incrementButtonTapped))
      let origin: JSONValue = .object(["client": .string("bench"), "connection": .int(1), "origin": .int(1)])
      var batch: [JournalRecord] = []
      for version in 1...UInt64(records) {
        batch.append(
          JournalRecord(
            version: version, time: 1_700_000_000_000 + Int64(version), origin: origin, action: action,
            patch: .array([
              .object(["op": .string("replace"), "path": .string("/counter/count"), "value": .int(Int(version))])
            ])))
        if batch.count == 1000 || version == UInt64(records) {
          try writer.append(batch)
          batch.removeAll(keepingCapacity: true)
        }
      }
      try writer.close()
    } catch {
      throw BenchError("cannot write a journal of \(records) records: \(error)")
    }
  }
}
