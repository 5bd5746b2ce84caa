import JSON

/// A payload that effects produce (`[Product]`, `EffectFailure`, `BMIRecord`),
/// written as a JSON literal on a command line.
///
/// The literal is checked by decoding it as the payload's type, so a mistake is
/// reported with the parse, naming the key or type at fault, rather than as an
/// undecodable action later.
public struct OpaqueValueSchema: Sendable {
  /// The payload's type for help text, e.g. `[Product]`.
  public let typeName: String
  private let makeSample: @Sendable () -> JSONValue
  private let check: @Sendable (JSONValue) -> String?

  /// The schema of `Payload`, with `sample` as its example value.
  public init<Payload: Codable & Sendable>(_ type: Payload.Type, sample: Payload) {
    self.typeName = TypeName.of(Payload.self)
    self.makeSample = { (try? CanonicalJSON.value(of: sample)) ?? .null }
    self.check = Self.checker(Payload.self)
  }

  /// The schema of `Payload`, with `example` (its JSON) as the example value.
  init<Payload: Decodable>(_ type: Payload.Type, example: JSONValue) {
    self.typeName = TypeName.of(Payload.self)
    self.makeSample = { example }
    self.check = Self.checker(Payload.self)
  }

  /// Why a JSON value is not a `Payload`, or `nil` when it decodes as one.
  private static func checker<Payload: Decodable>(_ type: Payload.Type) -> @Sendable (JSONValue) -> String? {
    let payload = PayloadType(type: type)
    return { json in
      do {
        _ = try json.decode(payload.type)
        return nil
      } catch let error as DecodingError {
        return error.briefDescription
      } catch {
        return "\(error)"
      }
    }
  }
  /// The sample value as JSON: valid, for tests and examples.
  public var sample: JSONValue { makeSample() }

  /// Why `value` is not a valid payload, or `nil` when it decodes.
  public func problem(with value: JSONValue) -> String? { check(value) }
}

extension DecodingError {
  /// One line naming what was wrong and where, e.g. `missing key 'message' at kind`.
  var briefDescription: String {
    func path(_ context: Context) -> String {
      let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
      return keys.isEmpty ? "the top level" : keys.joined(separator: ".")
    }
    switch self {
    case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(path(context))"
    case .typeMismatch(let type, let context): return "expected \(TypeName.of(type)) at \(path(context))"
    case .valueNotFound(let type, let context): return "expected \(TypeName.of(type)), found null at \(path(context))"
    case .dataCorrupted(let context): return "\(context.debugDescription) (at \(path(context)))"
    @unknown default: return "\(self)"
    }
  }
}

/// A payload's type, to decode with on the thread that reads actions.
///
/// `@unchecked` because a metatype of a type not known to be `Sendable` is
/// not `Sendable` by itself; what could make sharing it unsafe is a
/// `Decodable` conformance isolated to an actor. A payload is a value of an
/// action case, and the action type is `Codable & Sendable` with its
/// conformance used from the daemon's own thread already, so the payload's
/// conformance is not isolated either, and the type holds no state.
private struct PayloadType: @unchecked Sendable {
  let type: any Decodable.Type
}
