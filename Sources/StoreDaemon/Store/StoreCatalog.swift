import ActionLanguage
import Journal
import Platform
import Wire

/// The daemon's stores as `stores` lists them (docs/PROTOCOL.md, "Stores"):
/// their names, bytes on disk and newest records read from the state
/// directory, joined with what the loop knew of the open ones when asked.
/// Read on a history reader's thread (``HistoryReader``): a page of closed
/// stores is a directory and a journal segment read for each.
struct StoreCatalog: Sendable {
  /// What a `stores` request asks, with the loop's view of the open stores.
  struct Query: Sendable {
    let stateDirectory: String
    let after: StoreName?
    let limit: Int
    /// The open stores when asked, by name (nil: the default store).
    let open: [StoreName?: OpenStore]
  }

  /// An open store as the loop saw it.
  struct OpenStore: Sendable {
    let version: UInt64
    let clients: Int
  }

  /// How the journals' records are shown in the current schema.
  let upgrade: JournalUpgrade?
  let schema: ActionSchema

  /// A page of the stores `query` asks for, in name order: the default
  /// store first (on the page after no name, beside the `limit` named
  /// ones); `more` when stores after it were left for another page.
  func list(_ query: Query) throws(MessageError) -> (stores: [StoreListing], more: Bool) {
    let page: (names: [StoreName], more: Bool)
    do {
      page = try StoreDirectories.names(in: query.stateDirectory, after: query.after, limit: query.limit)
    } catch {
      throw MessageError(.journal, "the stores could not be listed: \(error)")
    }
    let names: [StoreName?] = (query.after == nil ? [nil] : []) + page.names
    return (names.map { listing(of: $0, in: query) }, page.more)
  }

  /// One store's listing; a journal that cannot be read is named in it.
  private func listing(of name: StoreName?, in query: Query) -> StoreListing {
    let open = query.open[name]
    let directory = StoreDirectories.directory(of: name, in: query.stateDirectory)
    var listing = StoreListing(
      name: name, isOpen: open != nil, version: open?.version, clients: open?.clients ?? 0,
      bytes: (try? StoreDirectories.bytesOnDisk(of: name, in: query.stateDirectory)) ?? 0, lastAction: nil)
    do throws(JournalError) {
      let newest = try JournalReader(directory: directory + "/journal", upgrade: upgrade).newest()
      if listing.version == nil { listing.version = newest.version }
      if let record = newest.record {
        listing.lastAction = StoreListing.LastAction(
          version: record.version, time: record.time,
          summary: HistoryReader.entry(record, schema: schema).summary)
      }
    } catch {
      listing.problem = "its journal could not be read: \(error)"
    }
    return listing
  }
}
