import Platform

/// Why the benchmark could not measure something: what it tried and what
/// happened, for the person running it.
struct BenchError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}

extension BenchError {
  /// A socket call that failed, as the benchmark reports it.
  init(_ error: SocketError) {
    self.init("\(error)")
  }

  /// A command line the benchmark cannot run with.
  init(_ error: UsageError) {
    self.init(error.description)
  }
}
