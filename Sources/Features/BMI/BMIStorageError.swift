/// Why a stored document is not a BMI record.
public struct BMIStorageError: Error, Hashable, Sendable, CustomStringConvertible {
  public let message: String
  public var description: String { message }
}
