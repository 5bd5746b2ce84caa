/// The screens of a navigation stack, bottom first, each with an id
/// (``StackElementID``): TCA's `StackState`.
///
/// ```swift
/// var path = StackState<Path.State>()
/// path.append(.detail(Detail.State(item: item)))   // pushes, id 0
/// ```
///
/// Ids are handed out in order, from ``nextID``, and never reused: ``nextID``
/// is part of the state, so it carries on across restarts of the daemon
/// like the rest. The state encodes as
/// `{"elements":[{"id":0,"state":…},…],"nextID":1}`, so a client sees each
/// screen's id, which addresses its actions (`path[0].…`), and a push or a
/// pop changes the document by one element (and the next id).
public struct StackState<Element> {
  /// One screen: its id and its state.
  public struct Component: Identifiable {
    public let id: StackElementID
    public var state: Element

    public init(id: StackElementID, state: Element) {
      self.id = id
      self.state = state
    }
  }

  /// The screens, bottom first.
  public private(set) var components: IdentifiedArray<Component>
  /// The id the next pushed screen gets.
  public private(set) var nextID: StackElementID

  /// An empty stack.
  public init() {
    components = []
    nextID = 0
  }

  /// A stack of `elements`, bottom first, with ids from 0.
  public init(_ elements: some Sequence<Element>) {
    self.init()
    for element in elements { append(element) }
  }

  /// Pushes `element` on top; returns its id.
  @discardableResult
  public mutating func append(_ element: Element) -> StackElementID {
    let id = nextID
    nextID = StackElementID(rawValue: id.rawValue + 1)
    components.append(Component(id: id, state: element))
    return id
  }

  /// Pushes `element` with `id`, which must be ``nextID`` (as a push a
  /// client asks for names the id it expects); returns whether it was pushed.
  @discardableResult
  mutating func push(_ element: Element, id: StackElementID) -> Bool {
    guard id == nextID else { return false }
    append(element)
    return true
  }

  /// Pops the top screen and returns it; `nil` when the stack is empty.
  @discardableResult
  public mutating func popLast() -> Element? {
    guard let last = components.last else { return nil }
    return components.remove(id: last.id)?.state
  }

  /// Pops the top `count` screens (all of them, if there are fewer).
  public mutating func removeLast(_ count: Int = 1) {
    for _ in 0..<Swift.min(Swift.max(count, 0), components.count) { popLast() }
  }

  /// Pops the screen `id` and every screen above it; returns whether `id` was
  /// on the stack.
  @discardableResult
  public mutating func pop(from id: StackElementID) -> Bool {
    guard let position = components.index(id: id) else { return false }
    removeLast(components.count - position)
    return true
  }

  /// Pops every screen above `id`, which stays on top; returns whether `id`
  /// was on the stack.
  @discardableResult
  public mutating func pop(to id: StackElementID) -> Bool {
    guard let position = components.index(id: id) else { return false }
    removeLast(components.count - position - 1)
    return true
  }

  /// Pops every screen.
  public mutating func removeAll() { removeLast(components.count) }

  /// Gives the screens new ids from `next` on, in order: a stack that a
  /// reducer replaced with a new one (whose ids start again at 0) goes on
  /// from where the one it replaced stopped, so that no id is used twice.
  mutating func renumber(from next: StackElementID) {
    nextID = next
    let screens = components.map(\.state)
    components = []
    for screen in screens { append(screen) }
  }

  /// The ids, bottom first.
  public var ids: [StackElementID] { components.ids }

  /// The screen `id`, if on the stack. Its state can be changed in place;
  /// setting `nil` pops it and every screen above it.
  public subscript(id id: StackElementID) -> Element? {
    get { components[id: id]?.state }
    set {
      guard let position = components.index(id: id) else { return }
      guard let newValue else {
        pop(from: id)
        return
      }
      components[position: position].state = newValue
    }
  }

  /// Mutable access to the screen at `position`, for the stack's reducer.
  subscript(position position: Int) -> Element {
    get { components[position].state }
    _modify { yield &components[position: position].state }
  }
}

extension StackState: RandomAccessCollection {
  public var startIndex: Int { components.startIndex }
  public var endIndex: Int { components.endIndex }
  public subscript(position: Int) -> Element { components[position].state }
}

extension StackState: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension StackState.Component: Equatable where Element: Equatable {}
extension StackState.Component: Hashable where Element: Hashable {}
extension StackState.Component: Sendable where Element: Sendable {}
extension StackState.Component: Encodable where Element: Encodable {}
extension StackState.Component: Decodable where Element: Decodable {}

extension StackState: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.components == rhs.components && lhs.nextID == rhs.nextID
  }
}

extension StackState: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(components)
    hasher.combine(nextID)
  }
}

extension StackState: Sendable where Element: Sendable {}

/// The members of a stack's JSON.
private enum StackStateCodingKeys: String, CodingKey { case elements, nextID }

extension StackState: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: StackStateCodingKeys.self)
    try container.encode(components, forKey: .elements)
    try container.encode(nextID, forKey: .nextID)
  }
}

extension StackState: Decodable where Element: Decodable {
  /// Decodes a stack whose ids are unique, in increasing order from bottom
  /// to top, and below ``nextID``; anything else is refused, naming it.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: StackStateCodingKeys.self)
    let components = try container.decode(IdentifiedArray<Component>.self, forKey: .elements)
    let nextID = try container.decode(StackElementID.self, forKey: .nextID)
    for (lower, upper) in zip(components.ids, components.ids.dropFirst()) where lower >= upper {
      throw DecodingError.dataCorruptedError(
        forKey: .elements, in: container,
        debugDescription: "A stack's ids increase from bottom to top; id \(upper) is above id \(lower).")
    }
    if let top = components.last?.id, top >= nextID {
      throw DecodingError.dataCorruptedError(
        forKey: .nextID, in: container,
        debugDescription: "A stack's next id is above every id on it; it is \(nextID), and id \(top) is on it.")
    }
    self.components = components
    self.nextID = nextID
  }
}

extension StackState: CustomStringConvertible {
  public var description: String { components.map { "\($0.id): \($0.state)" }.description }
}

extension StackState: CustomReflectable {
  /// Reflects as the list of screens by id, and the next id.
  public var customMirror: Mirror {
    Mirror(self, children: ["components": components, "nextID": nextID], displayStyle: .struct)
  }
}
