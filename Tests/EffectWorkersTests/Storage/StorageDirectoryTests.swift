import ComposableCore
import Foundation
import Glibc
import TestSupport
import Testing

@testable import EffectWorkers

/// The on-disk store, on real files in a temporary directory.
@Suite(.ownThreads) struct StorageDirectoryTests {
  @Test func aPutIsReadBackAndReplacedWhole() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.appending("state"))
    #expect(try storage.get("k", in: "n") == nil)
    try storage.put("k", in: "n", value: Data("first version".utf8))
    #expect(try storage.get("k", in: "n") == Data("first version".utf8))
    try storage.put("k", in: "n", value: Data("v2".utf8))
    #expect(try storage.get("k", in: "n") == Data("v2".utf8))
    try storage.put("empty", in: "n", value: Data())
    #expect(try storage.get("empty", in: "n") == Data())
  }

  @Test func theLayoutIsStateDirStorageNamespaceKeyWithPrivateModes() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("nested/state")
    let storage = try StorageDirectory(stateDirectory: state + "/")
    try storage.put("key one", in: "bmi-history", value: Data([1, 2, 3]))
    let file = state + "/storage/bmi-history/key%20one"
    #expect(storage.path(of: "key one", in: "bmi-history") == file)
    #expect(FileManager.default.contents(atPath: file) == Data([1, 2, 3]))
    #expect(try FileManager.default.contentsOfDirectory(atPath: state + "/storage/bmi-history") == ["key%20one"])
    var status = stat()
    #expect(stat(file, &status) == 0 && status.st_mode & 0o777 == 0o600)
    #expect(stat(state + "/storage/bmi-history", &status) == 0 && status.st_mode & 0o777 == 0o700)
  }

  @Test func deleteSaysWhetherTheDocumentExisted() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    try storage.put("k", in: "n", value: Data("x".utf8))
    #expect(try storage.delete("k", in: "n"))
    #expect(try storage.get("k", in: "n") == nil)
    #expect(try !storage.delete("k", in: "n"))
    #expect(try !storage.delete("k", in: "no such namespace"))
  }

  @Test func listIsSortedByTheBytesOfTheKeysAndSkipsStrayFiles() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    for key in ["b", "é", "a", "B", "aa"] { try storage.put(key, in: "n", value: Data(key.utf8)) }
    for stray in [".tmp-Xy12Ab", "%2e", ".lock"] {
      #expect(FileManager.default.createFile(atPath: storage.directory(of: "n") + "/" + stray, contents: Data()))
    }
    let listed = try storage.list("n")
    #expect(listed.map(\.key) == ["B", "a", "aa", "b", "é"])
    #expect(listed.allSatisfy { $0.value == Data($0.key.utf8) })
    #expect(try storage.list("empty") == [])
  }

  @Test func hostileNamesStayInsideTheirNamespace() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    let keys = ["../x", "a/b", ".", "..", ".hidden", "/etc/passwd", "../../escape"]
    for key in keys { try storage.put(key, in: "../ns", value: Data(key.utf8)) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == ["storage"])
    #expect(try Set(FileManager.default.contentsOfDirectory(atPath: storage.root)) == ["%2E%2E%2Fns"])
    let files = try FileManager.default.contentsOfDirectory(atPath: storage.root + "/%2E%2E%2Fns")
    #expect(files.count == keys.count)
    #expect(files.allSatisfy { !$0.hasPrefix(".") && !$0.contains("/") })
    #expect(try storage.list("../ns").map(\.key).sorted() == keys.sorted())
    for key in keys { #expect(try storage.get(key, in: "../ns") == Data(key.utf8)) }
  }

  /// What a put interrupted by a crash leaves is removed at startup, and is
  /// never seen as a document meanwhile.
  @Test func staleTemporariesAreRemovedAndNothingElse() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    try storage.put("kept", in: "n", value: Data("v".utf8))
    let stale = storage.directory(of: "n") + "/.tmp-Ab12Cd"
    #expect(FileManager.default.createFile(atPath: stale, contents: Data("half a docu".utf8)))
    #expect(try storage.list("n").map(\.key) == ["kept"])
    #expect(try storage.removeStaleTemporaries() == [stale])
    #expect(!FileManager.default.fileExists(atPath: stale))
    #expect(try storage.get("kept", in: "n") == Data("v".utf8))
    #expect(try storage.removeStaleTemporaries() == [])
  }

  @Test func aPutLeavesNoTemporaryFileBehind() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    for index in 0..<20 { try storage.put("k", in: "n", value: Data(repeating: UInt8(index), count: 100_000)) }
    #expect(try FileManager.default.contentsOfDirectory(atPath: storage.directory(of: "n")) == ["k"])
  }

  @Test func invalidNamesAndOversizedDocumentsAreInvalidRequests() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    #expect(
      storage.perform(.put(namespace: "", key: "k", value: Data()))
        == .failure(EffectFailure(.invalidRequest, "put /k: the namespace is empty")))
    #expect(
      storage.perform(.get(namespace: "n", key: ""))
        == .failure(EffectFailure(.invalidRequest, "get n/: the key is empty")))
    let long = String(repeating: "x", count: 81)
    #expect(
      storage.perform(.list(namespace: long))
        == .failure(
          EffectFailure(.invalidRequest, "list \(long): the namespace is 81 bytes of UTF-8; at most 80 are allowed")))
    let oversized = Data(count: StorageDirectory.maximumDocumentBytes + 1)
    #expect(
      storage.perform(.put(namespace: "n", key: "big", value: oversized))
        == .failure(
          EffectFailure(.invalidRequest, "put n/big: the document is 16777217 bytes, over the 16777216-byte limit")))
    #expect(try storage.get("big", in: "n") == nil)
  }

  @Test func ioErrorsAreStorageFailuresNamingTheFileAndErrno() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    // A file where the namespace's directory belongs.
    #expect(FileManager.default.createFile(atPath: storage.directory(of: "blocked"), contents: Data()))
    let put = storage.perform(.put(namespace: "blocked", key: "k", value: Data("x".utf8)))
    #expect(
      put
        == .failure(
          EffectFailure(.storage, "put blocked/k: cannot use \(storage.root)/blocked: Not a directory (errno 20)")))
    // A directory where a document belongs.
    try FileManager.default.createDirectory(
      atPath: storage.path(of: "dir", in: "n"), withIntermediateDirectories: true)
    #expect(
      storage.perform(.get(namespace: "n", key: "dir"))
        == .failure(EffectFailure(.storage, "get n/dir: cannot read \(storage.root)/n/dir: it is not a regular file")))
  }

  @Test func aListingTooLargeForOneReplyIsRefused() throws {
    let temporary = try TemporaryDirectory()
    let storage = try StorageDirectory(stateDirectory: temporary.path)
    let eleven = Data(count: 11 << 20)
    for key in ["a", "b", "c"] { try storage.put(key, in: "n", value: eleven) }
    guard case .failure(let failure) = storage.perform(.list(namespace: "n")) else {
      Issue.record("a 33 MiB listing was not refused")
      return
    }
    #expect(failure.kind == .invalidRequest)
    #expect(failure.message.contains("more than the 33554432 bytes one reply carries"))
  }

  /// Only one worker may use a storage directory; a second waits for the
  /// first one's lock and gives up with a clear message.
  @Test func theLockIsHeldByARunningWorker() throws {
    let temporary = try TemporaryDirectory()
    let state = temporary.appending("state")
    let worker = try SpawnedWorker(.storage, arguments: ["--state-dir", state], in: temporary)
    let storage = try StorageDirectory(stateDirectory: state)
    #expect {
      try storage.lockExclusively(timeout: .milliseconds(200))
    } throws: { error in
      "\(error)".contains("another effectworker has held it") && "\(error)".contains(state + "/storage/.lock")
    }
    worker.closeSocket()
    #expect(worker.waitForExit() == .exited(0))
    close(try storage.lockExclusively(timeout: .seconds(5)))
  }
}
