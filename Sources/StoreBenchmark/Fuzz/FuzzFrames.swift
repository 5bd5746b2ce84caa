import Wire

/// The hostile bytes a fuzzing connection writes: fuzzed frames of every kind
/// a fault hunt tries (random bytes, wrong length prefixes, mutated valid
/// requests, huge names, deep nesting, bad UTF-8, large JSON), drawn from a
/// seeded generator so that a run can be repeated.
struct FuzzFrames {
  var random: SplitMix64

  /// What to write, and whether the daemon closes the connection after it
  /// (an oversized or truncated frame).
  struct Output {
    var bytes: [UInt8]
    var endsConnection = false
  }

  /// The requests a well-behaved client sends, to mutate.
  static let validRequests = [
    #"{"type":"send","id":1,"path":"counter.incrementButtonTapped"}"#,
    #"{"type":"send","id":2,"path":"cart.addItem","arguments":["3"]}"#,
    #"{"type":"send","id":3,"action":{"counter":"decrementButtonTapped"}}"#,
    #"{"type":"send","id":4,"path":"bmi.input.binding.height","arguments":["180"]}"#,
    #"{"type":"get","id":5,"path":"/counter"}"#,
    #"{"type":"subscribe","id":6,"path":"/cart"}"#,
    #"{"type":"status","id":7}"#,
    #"{"type":"actions","id":8,"all":true}"#,
    #"{"type":"log","id":9,"last":3}"#,
    #"{"type":"send","id":10,"path":"products.rows[1].addToCart.plusButtonTapped"}"#,
  ].map { Array($0.utf8) }

  /// The next frame (or frames, or broken frame) to write.
  mutating func next() -> Output {
    switch random.below(100) {
    case 0..<10: return Output(bytes: frame(Self.validRequests[random.below(Self.validRequests.count)]))
    case 10..<30: return Output(bytes: frame(mutated(Self.validRequests[random.below(Self.validRequests.count)])))
    case 30..<40: return Output(bytes: frame(randomBytes(count: random.below(2048))))
    case 40..<50: return Output(bytes: frame(send(path: longName())))
    case 50..<55:
      return Output(bytes: frame(send(path: "tabSelected", arguments: [repeated("x", 1000 + random.below(900_000))])))
    case 55..<65:
      let depth = 10 + random.below(600)
      return Output(bytes: frame(send(path: "products.productsResponse", arguments: [nested(depth)])))
    case 65..<70:
      let depth = 10 + random.below(600)
      return Output(
        bytes: frame(
          Array(#"{"type":"send","id":11,"action":{"counter":"#.utf8) + Array(nested(depth).utf8) + Array("}}".utf8)))
    case 70..<75: return Output(bytes: frame(badUTF8()))
    case 75..<78: return Output(bytes: [0xFF, 0xFF, 0xFF, UInt8(random.below(256))], endsConnection: true)
    case 78..<80:
      // A header announcing more than follows, then the connection ends.
      return Output(bytes: [0, 0, 4, 0] + randomBytes(count: random.below(1024)), endsConnection: true)
    case 80..<85: return Output(bytes: frame(largeJSON()))
    case 85..<90:
      var burst: [UInt8] = []
      for _ in 0..<(2 + random.below(30)) {
        burst += frame(mutated(Self.validRequests[random.below(Self.validRequests.count)]))
      }
      return Output(bytes: burst)
    default:
      return Output(bytes: frame(send(path: misspelled())))
    }
  }

  /// A hello for a new connection: mostly proper, sometimes hostile.
  mutating func hello() -> [UInt8] {
    switch random.below(20) {
    case 0: return frame(Array(#"{"type":"hello","protocol":1,"client":"\#(repeated("n", 1_000_000))"}"#.utf8))
    case 1: return frame(Array(#"{"type":"hello","protocol":99}"#.utf8))
    case 2: return frame(randomBytes(count: random.below(64)))
    case 3: return frame(Array(#"{"type":"status","id":1}"#.utf8))
    default: return frame(Array(#"{"type":"hello","protocol":1,"client":"fuzz"}"#.utf8))
    }
  }

  // MARK: Pieces

  private func frame(_ payload: [UInt8]) -> [UInt8] {
    let length = payload.count
    return [
      UInt8(truncatingIfNeeded: length >> 24), UInt8(truncatingIfNeeded: length >> 16),
      UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length),
    ] + payload
  }

  private func send(path: String, arguments: [String] = []) -> [UInt8] {
    MessageCodec.encode(ClientMessage.send(id: 12, action: .path(path, arguments: arguments)).json)
  }

  private func repeated(_ character: Character, _ count: Int) -> String { String(repeating: character, count: count) }

  private mutating func randomBytes(count: Int) -> [UInt8] {
    (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  /// `bytes` with a few bytes replaced, inserted or removed.
  private mutating func mutated(_ bytes: [UInt8]) -> [UInt8] {
    var bytes = bytes
    for _ in 0..<(1 + random.below(8)) where !bytes.isEmpty {
      let index = random.below(bytes.count)
      switch random.below(3) {
      case 0: bytes[index] = UInt8(truncatingIfNeeded: random.next())
      case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: index)
      default: bytes.remove(at: index)
      }
    }
    return bytes
  }

  /// A long unknown action name, plain or under a real group.
  private mutating func longName() -> String {
    let name = repeated("q", 100 + random.below(60_000))
    return random.below(2) == 0 ? name : "dice.view." + name
  }

  private mutating func misspelled() -> String {
    ["cart.addItm", "counter.incremnt", "dice.view.rollButonTapped", "bmi.tabSelectd", "products.rows[1].addToCrt"][
      random.below(5)]
  }

  /// Arrays and objects nested `depth` levels.
  private mutating func nested(_ depth: Int) -> String {
    random.below(2) == 0
      ? repeated("[", depth) + repeated("]", depth)
      : String(repeating: #"{"a":"#, count: depth) + "1" + repeated("}", depth)
  }

  private mutating func badUTF8() -> [UInt8] {
    let invalid: [[UInt8]] = [
      [0xC3, 0x28], [0xFF], [0xED, 0xA0, 0x80], [0xF8, 0x88, 0x80, 0x80, 0x80], [0xC0, 0xAF],
    ]
    return Array(#"{"type":"send","id":13,"path":"cart."#.utf8) + invalid[random.below(invalid.count)]
      + Array(#"","arguments":["3"]}"#.utf8)
  }

  /// A large frame made of many small JSON values: past the daemon's
  /// limits, or the costliest a `send` may be within them (a JSON argument,
  /// a binding's value).
  private mutating func largeJSON() -> [UInt8] {
    let count = 10_000 + random.below(60_000)
    switch random.below(6) {
    case 5:
      // Members the daemon ignores, once parsed: up to the 1 MiB maximum.
      return Array(#"{"type":"status","id":18,"ignored":["#.utf8)
        + Array(Array(repeating: #"{"a":[1]}"#, count: count + 40_000).joined(separator: ",").utf8) + Array("]}".utf8)
    case 3:
      return send(
        path: "products.productsResponse",
        arguments: ["[" + Array(repeating: "{}", count: 2_700).joined(separator: ",") + "]"])
    case 4:
      return Array(
        #"{"type":"send","id":17,"action":{"bmi":{"input":{"binding":{"field":"height","value":["#
          .utf8)
        + Array(Array(repeating: "1", count: 4_000).joined(separator: ",").utf8) + Array("]}}}}}".utf8)
    case 0:
      return Array(#"{"type":"send","id":14,"action":{"#.utf8)
        + Array((0..<count).map { #""k\#($0)":1"# }.joined(separator: ",").utf8) + Array("}}".utf8)
    case 1:
      return Array(#"{"type":"get","id":15,"path":""#.utf8) + Array(String(repeating: "/a", count: count).utf8)
        + Array(#""}"#.utf8)
    default:
      return Array(#"{"type":"send","id":16,"action":{"products":{"productsResponse":["#.utf8)
        + Array(Array(repeating: "{}", count: count).joined(separator: ",").utf8) + Array("]}}}".utf8)
    }
  }
}

/// A small seeded generator (SplitMix64), so that a fuzz run can be repeated.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound`.
  mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
