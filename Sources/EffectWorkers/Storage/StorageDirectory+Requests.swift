import EffectRequests

extension StorageDirectory {
  /// Carries out `request` and returns the reply the daemon gets: the
  /// result, `invalidRequest` for a bad name or an oversized document or
  /// listing, and `storage` for an I/O error (naming the file and errno).
  func perform(_ request: StorageRequest) -> EffectReply {
    let (operation, namespace, key) = request.names
    let subject = key.map { "\(operation) \(namespace)/\($0)" } ?? "\(operation) \(namespace)"
    if let problem = StorageName.problem(with: namespace, what: "namespace")
      ?? key.flatMap({ StorageName.problem(with: $0, what: "key") })
    {
      return .failure(EffectFailure(.invalidRequest, "\(subject): \(problem)"))
    }
    if case .put(_, _, let value) = request, value.count > Self.maximumDocumentBytes {
      return .failure(
        EffectFailure(
          .invalidRequest,
          "\(subject): the document is \(value.count) bytes, over the \(Self.maximumDocumentBytes)-byte limit"))
    }
    do throws(StorageError) {
      switch request {
      case .get(let namespace, let key):
        return .storage(.document(try get(key, in: namespace).map { StorageDocument(key: key, value: $0) }))
      case .put(let namespace, let key, let value):
        try put(key, in: namespace, value: value)
        return .storage(.stored)
      case .delete(let namespace, let key):
        return .storage(.deleted(existed: try delete(key, in: namespace)))
      case .list(let namespace):
        return .storage(.documents(try list(namespace)))
      }
    } catch {
      if case .limit = error.reason {
        return .failure(EffectFailure(.invalidRequest, "\(subject): \(error)"))
      }
      return .failure(EffectFailure(.storage, "\(subject): \(error)"))
    }
  }
}

extension StorageRequest {
  /// The operation's name, its namespace, and its key if it has one.
  var names: (operation: String, namespace: String, key: String?) {
    switch self {
    case .get(let namespace, let key): ("get", namespace, key)
    case .put(let namespace, let key, _): ("put", namespace, key)
    case .delete(let namespace, let key): ("delete", namespace, key)
    case .list(let namespace): ("list", namespace, nil)
    }
  }
}
