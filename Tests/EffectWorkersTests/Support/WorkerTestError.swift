/// A test's own failure, with a sentence saying what did not happen.
struct WorkerTestError: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
