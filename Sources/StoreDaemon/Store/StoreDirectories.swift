import Platform
import Wire

/// Where each store's files are in a state directory: the default store's
/// journal is `journal/` in it, a named store's `stores/NAME/journal/`
/// (docs/OPERATIONS.md, "Where things are").
enum StoreDirectories {
  /// The directory, in the state directory, that holds the named stores'.
  static let stores = "stores"

  /// The directory whose `journal` is the store `name`'s: the state
  /// directory for the default store (nil), `stores/NAME` in it for a
  /// named one.
  static func directory(of name: StoreName?, in stateDirectory: String) -> String {
    guard let name else { return stateDirectory }
    return stateDirectory + "/" + stores + "/" + name.text
  }

  /// The named stores `stateDirectory` holds a journal of, by name, in
  /// order; a directory under `stores/` that is no store's is passed over.
  static func names(in stateDirectory: String) throws(SystemFailure) -> [StoreName] {
    try names(in: stateDirectory, after: nil, limit: .max).names
  }

  /// At most `limit` of the named stores `stateDirectory` holds, in order,
  /// those after `after` (all when nil); `more` when others follow them.
  /// Only the entries it returns are looked into.
  static func names(
    in stateDirectory: String, after: StoreName?, limit: Int
  ) throws(SystemFailure) -> (names: [StoreName], more: Bool) {
    let path = stateDirectory + "/" + stores
    guard FileIO.exists(path) else { return ([], false) }
    var names: [StoreName] = []
    for entry in try FileIO.list(path).sorted() where after.map({ entry > $0.text }) ?? true {
      guard let name = try? StoreName(entry), FileIO.exists(path + "/" + entry + "/journal") else { continue }
      guard names.count < limit else { return (names, true) }
      names.append(name)
    }
    return (names, false)
  }

  /// The bytes the store `name`'s files take on disk: its journal and
  /// snapshots (`journal/`) and its stored documents (`storage/`).
  static func bytesOnDisk(of name: StoreName?, in stateDirectory: String) throws(SystemFailure) -> Int {
    let directory = directory(of: name, in: stateDirectory)
    return try FileIO.bytesOnDisk(directory + "/journal") + FileIO.bytesOnDisk(directory + "/storage")
  }
}
