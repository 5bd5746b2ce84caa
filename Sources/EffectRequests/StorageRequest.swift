import FoundationEssentials

/// A request for the storage worker: documents (opaque bytes) by key in a
/// namespace.
public enum StorageRequest: Hashable, Sendable, Codable {
  /// Reads one document; replies ``StorageReply/document(_:)`` (nil when absent).
  case get(namespace: String, key: String)
  /// Writes one document atomically and durably; replies ``StorageReply/stored``.
  case put(namespace: String, key: String, value: Data)
  /// Deletes one document; replies ``StorageReply/deleted(existed:)``.
  case delete(namespace: String, key: String)
  /// Lists a namespace's documents in key order; replies ``StorageReply/documents(_:)``.
  case list(namespace: String)
}

/// The storage worker's answer to a ``StorageRequest``.
public enum StorageReply: Hashable, Sendable, Codable {
  case document(StorageDocument?)
  case stored
  case deleted(existed: Bool)
  case documents([StorageDocument])
}

/// A stored document.
public struct StorageDocument: Hashable, Sendable, Codable {
  public var key: String
  public var value: Data

  public init(key: String, value: Data) {
    self.key = key
    self.value = value
  }
}
