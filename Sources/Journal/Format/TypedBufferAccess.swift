/// `withUnsafeBytes` that keeps the body's typed error (the standard
/// library's version rethrows `any Error`).
extension Array where Element == UInt8 {
  func withBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withUnsafeBytes { buffer in Swift.Result { () throws(Failure) in try body(buffer) } }.get()
  }
}

extension ArraySlice where Element == UInt8 {
  func withBytes<Result, Failure: Error>(
    _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    try withUnsafeBytes { buffer in Swift.Result { () throws(Failure) in try body(buffer) } }.get()
  }
}
