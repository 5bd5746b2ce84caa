/// The kind of an effect worker: the name requests are routed by, one
/// process per kind.
///
/// The daemon serves three kinds of its own (``timer``, ``network``,
/// ``storage``); an app declares more (`export`, `email`), each served by an
/// executable of its choosing that speaks the worker protocol
/// (docs/PROTOCOL.md, "Worker protocol"). A kind's name is 1 to 32 lowercase
/// ASCII letters, digits and hyphens, starting with a letter
/// (``validate(_:)``), so that it reads well in logs, `tcactl status` and
/// thread names.
///
/// A string literal makes a kind without checking it, for features to name
/// their app's kinds (`let export: WorkerKind = "export"`); the daemon checks
/// the names an app declares when it starts, and fails a request of a kind no
/// worker serves with `invalidRequest`.
public struct WorkerKind: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible,
  ExpressibleByStringLiteral
{
  /// The kind's name, as it travels in the worker protocol.
  public let rawValue: String

  /// A kind named `rawValue`, or nil if the name breaks the rule of
  /// ``validate(_:)``.
  public init?(rawValue: String) {
    guard (try? Self.validate(rawValue)) != nil else { return nil }
    self.rawValue = rawValue
  }

  public init(stringLiteral name: String) {
    rawValue = name
  }

  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    do {
      try Self.validate(name)
    } catch {
      throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
    }
    rawValue = name
  }

  public var description: String { rawValue }

  /// Timers, one-shot and repeating (`effectworker --kind timer`).
  public static let timer: WorkerKind = "timer"
  /// HTTP requests (`effectworker-network`).
  public static let network: WorkerKind = "network"
  /// Documents by key in a namespace (`effectworker --kind storage`).
  public static let storage: WorkerKind = "storage"

  /// The kinds the daemon serves with its own workers, in the order status
  /// lists them.
  public static let builtIn: [WorkerKind] = [.timer, .network, .storage]

  /// Whether the daemon serves this kind with its own worker.
  public var isBuiltIn: Bool { Self.builtIn.contains(self) }

  /// The longest name a kind may have.
  public static let maximumNameLength = 32

  /// Checks that `name` can name a kind: 1 to ``maximumNameLength``
  /// lowercase ASCII letters, digits and hyphens, starting with a letter.
  ///
  /// - Throws: ``WorkerKindError`` saying what is wrong with the name.
  public static func validate(_ name: String) throws(WorkerKindError) {
    let rule = "a kind is 1 to \(maximumNameLength) lowercase letters, digits and hyphens, starting with a letter"
    guard let first = name.utf8.first, name.utf8.count <= maximumNameLength else {
      throw WorkerKindError(name: name, reason: name.isEmpty ? "it is empty; \(rule)" : "it is too long; \(rule)")
    }
    guard (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(first) else {
      throw WorkerKindError(name: name, reason: "it does not start with a lowercase letter; \(rule)")
    }
    let allowed = { (byte: UInt8) in
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        || byte == UInt8(ascii: "-")
    }
    guard name.utf8.allSatisfy(allowed) else {
      throw WorkerKindError(name: name, reason: "it has a character other than a-z, 0-9 and '-'; \(rule)")
    }
  }
}

/// A name that cannot name a worker kind.
public struct WorkerKindError: Error, Hashable, Sendable, CustomStringConvertible {
  /// The name as given.
  public let name: String
  /// What is wrong with it, and the rule.
  public let reason: String

  public var description: String { "invalid worker kind '\(name)': \(reason)" }
}
