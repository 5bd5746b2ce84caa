import Platform

/// The benchmark's socket calls: Platform's, failing with ``BenchError``, and
/// writes that wait for room on the load loops' non-blocking sockets.
extension UnixSocket {
  /// Connects to the stream socket at `path`.
  static func connectForBench(_ path: String) throws(BenchError) -> UnixSocket {
    do {
      return try connect(to: path)
    } catch {
      throw BenchError(error)
    }
  }

  /// Writes all of `bytes`, waiting for room as needed.
  func writeAll(_ bytes: [UInt8]) throws(BenchError) {
    let failure = bytes.withUnsafeBytes { raw -> BenchError? in
      do throws(BenchError) {
        try writeAll(raw)
        return nil
      } catch {
        return error
      }
    }
    if let failure { throw failure }
  }

  /// Writes all of `bytes`, waiting for room as needed.
  func writeAll(_ bytes: UnsafeRawBufferPointer) throws(BenchError) {
    do {
      try write(bytes, waitingWhenFull: true)
    } catch {
      throw BenchError(error)
    }
  }
}
