import EffectRequests
import FoundationEssentials
import Glibc
import Wire

/// The documents on disk: `<state-dir>/storage/<namespace>/<key>`, each name
/// encoded by ``StorageName``, each file holding a document's bytes as they
/// were put.
///
/// Every method runs on the storage worker's single work thread (or a test's),
/// so there is exactly one writer and requests take effect in arrival order.
struct StorageDirectory: Sendable {
  /// The largest document: 16 MiB.
  static let maximumDocumentBytes = 16 << 20
  /// The most document bytes one `list` returns: 32 MiB, so that the reply,
  /// base64-encoded, fits in one worker frame.
  static let maximumListBytes = 32 << 20
  /// The prefix of the temporary files a put writes before renaming.
  static let temporaryPrefix = ".tmp-"

  /// `<state-dir>/storage`.
  let root: String
  /// The state directory it is in.
  let stateDirectory: String

  /// Opens the storage under `stateDirectory`, creating `stateDirectory` and
  /// `stateDirectory/storage` when missing (durably: each new directory's
  /// parent is fsynced).
  init(stateDirectory: String) throws(StorageError) {
    let trimmed =
      stateDirectory.count > 1 && stateDirectory.hasSuffix("/") ? String(stateDirectory.dropLast()) : stateDirectory
    root = trimmed + "/storage"
    self.stateDirectory = trimmed
    try DurableFile.makeDirectories(trimmed)
    try DurableFile.makeDirectory(root, in: trimmed)
  }

  /// The documents of the named store `store`, beside its journal:
  /// `<state-dir>/stores/<store>/storage`, made when missing. The lock on
  /// this directory's covers them: one storage worker serves every store.
  func ofStore(_ store: StoreName) throws(StorageError) -> StorageDirectory {
    try StorageDirectory(stateDirectory: stateDirectory + "/stores/" + store.text)
  }

  /// Takes an exclusive `flock` on `storage/.lock`, so a second storage worker
  /// on the same directory (one the daemon started before the previous one
  /// was gone) waits instead of removing the other's temporary files. Waits
  /// up to `timeout` (the default stays under the 10 s the daemon allows for
  /// `ready`).
  ///
  /// - Returns: the descriptor holding the lock; the lock lasts until it is
  ///   closed or the process exits.
  @discardableResult
  func lockExclusively(timeout: Duration = .seconds(5)) throws(StorageError) -> Int32 {
    let path = root + "/.lock"
    let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else { throw .system("open", path: path) }
    let deadline = ContinuousClock.now + timeout
    while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
      guard errno == EWOULDBLOCK || errno == EINTR else {
        let error = StorageError.system("lock", path: path)
        close(descriptor)
        throw error
      }
      guard ContinuousClock.now < deadline else {
        close(descriptor)
        throw StorageError(
          "lock", path: path,
          reason: .limit("another effectworker has held it for \(timeout); only one may use a storage directory"))
      }
      usleep(50_000)
    }
    return descriptor
  }

  /// Removes the temporary files that puts interrupted by a crash left
  /// behind. Call at startup, with the lock held, before serving.
  ///
  /// - Returns: the paths removed.
  func removeStaleTemporaries() throws(StorageError) -> [String] {
    var removed: [String] = []
    for namespace in try DurableFile.names(in: root) ?? [] where !namespace.hasPrefix(".") {
      let directory = root + "/" + namespace
      var status = stat()
      guard lstat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { continue }
      var removedHere = false
      for name in try DurableFile.names(in: directory) ?? [] where name.hasPrefix(Self.temporaryPrefix) {
        let path = directory + "/" + name
        guard unlink(path) == 0 else { throw .system("delete the stale temporary file", path: path) }
        removed.append(path)
        removedHere = true
      }
      if removedHere { try DurableFile.syncDirectory(directory) }
    }
    return removed
  }

  /// The directory of `namespace`.
  func directory(of namespace: String) -> String {
    root + "/" + StorageName.encode(namespace)
  }

  /// The file of `key` in `namespace`.
  func path(of key: String, in namespace: String) -> String {
    directory(of: namespace) + "/" + StorageName.encode(key)
  }

  /// The document `key` in `namespace`, or nil.
  func get(_ key: String, in namespace: String) throws(StorageError) -> Data? {
    try DurableFile.read(path(of: key, in: namespace), limit: Self.maximumDocumentBytes).map { Data($0) }
  }

  /// Stores `value` as `key` in `namespace`, atomically and durably: when this
  /// returns, the document survives a crash or power loss, and no crash at
  /// any point leaves a half-written document.
  func put(_ key: String, in namespace: String, value: Data) throws(StorageError) {
    let directory = directory(of: namespace)
    try DurableFile.makeDirectory(directory, in: root)
    let target = path(of: key, in: namespace)
    let result: Result<Void, StorageError> = value.withUnsafeBytes { bytes in
      do throws(StorageError) {
        try DurableFile.replace(target, in: directory, with: bytes)
        return .success(())
      } catch {
        return .failure(error)
      }
    }
    try result.get()
  }

  /// Deletes `key` from `namespace`, durably. Returns whether it existed.
  func delete(_ key: String, in namespace: String) throws(StorageError) -> Bool {
    try DurableFile.remove(path(of: key, in: namespace), in: directory(of: namespace))
  }

  /// Every document of `namespace`, sorted by the bytes of their keys' UTF-8.
  /// Files whose names no key encodes to (temporaries, strays) are skipped.
  func list(_ namespace: String) throws(StorageError) -> [StorageDocument] {
    let directory = directory(of: namespace)
    let keys = (try DurableFile.names(in: directory) ?? []).compactMap(StorageName.decode)
    var documents: [StorageDocument] = []
    var total = 0
    for key in keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }) {
      guard let value = try get(key, in: namespace) else { continue }
      total += value.count
      guard total <= Self.maximumListBytes else {
        throw StorageError(
          "list", path: directory,
          reason: .limit(
            "its documents hold more than the \(Self.maximumListBytes) bytes one reply carries; get them one by one"))
      }
      documents.append(StorageDocument(key: key, value: value))
    }
    return documents
  }
}
