import JSON
import Synchronization

/// An ordered collection of identified elements with O(1) lookup by id.
///
/// The state of a list feature: `forEach` addresses its elements by id, and it
/// encodes as a plain JSON array (so diffs can match elements by id). Ids are
/// unique; decoding an array with a repeated id fails with an error naming it.
public struct IdentifiedArray<Element: Identifiable>: RandomAccessCollection {
  public typealias ID = Element.ID

  /// The elements in order, in chunks that copies share until they are
  /// written to: changing one element of a copy copies one chunk, not all.
  public private(set) var elements: ChunkedArray<Element>
  /// Where each id sits in `elements`, and a stamp that changes on every
  /// insertion, removal or reordering (never on an element's own mutation).
  private(set) var structure: Structure

  struct Structure {
    var index: [ID: Int]
    var generation: UInt64
  }

  /// An empty collection.
  public init() {
    self.elements = []
    self.structure = Structure(index: [:], generation: Self.nextGeneration())
  }

  /// A collection of `elements`, whose ids must be unique.
  public init(uniqueElements elements: some Sequence<Element>) {
    self.init()
    for element in elements {
      // invariant: the caller's own elements (a literal, a bundled catalog): elements read from input go through
      // init(from:), which throws on a repeated id, or append(_:), which refuses one
      precondition(structure.index[element.id] == nil, "IdentifiedArray: duplicate id \(element.id)")
      structure.index[element.id] = self.elements.count
      self.elements.append(element)
    }
  }

  public var startIndex: Int { elements.startIndex }
  public var endIndex: Int { elements.endIndex }
  public subscript(position: Int) -> Element { elements[position] }

  /// The ids in order.
  public var ids: [ID] { elements.map(\.id) }

  /// The position of the element with `id`, if present.
  public func index(id: ID) -> Int? { structure.index[id] }

  /// Whether an element with `id` is present.
  public func contains(id: ID) -> Bool { structure.index[id] != nil }

  /// The element with `id`. Setting `nil` removes it; setting an element for a
  /// new id appends it.
  public subscript(id id: ID) -> Element? {
    get { structure.index[id].map { elements[$0] } }
    set {
      switch (structure.index[id], newValue) {
      case (let position?, let element?):
        // invariant: only a reducer that writes an element under another id than its own reaches this (code, not
        // input)
        precondition(element.id == id, "IdentifiedArray: the element stored at id \(id) has id \(element.id)")
        elements[position] = element
      case (_?, nil):
        remove(id: id)
      case (nil, let element?):
        // invariant: only a reducer that writes an element under another id than its own reaches this (code, not
        // input); elements read from input go through init(from:), which throws on a repeated id, or append(_:),
        // which refuses one
        precondition(element.id == id, "IdentifiedArray: the element stored at id \(id) has id \(element.id)")
        append(element)
      case (nil, nil):
        break
      }
    }
  }

  /// Mutable access to the element at `position`, without touching the index.
  subscript(position position: Int) -> Element {
    get { elements[position] }
    _modify { yield &elements[position] }
  }

  /// Appends `element` if its id is new; returns whether it was inserted.
  @discardableResult
  public mutating func append(_ element: Element) -> Bool {
    guard structure.index[element.id] == nil else { return false }
    structure.index[element.id] = elements.count
    structure.generation = Self.nextGeneration()
    elements.append(element)
    return true
  }

  /// Inserts `element` at `position` if its id is new; returns whether it was inserted.
  @discardableResult
  public mutating func insert(_ element: Element, at position: Int) -> Bool {
    guard structure.index[element.id] == nil else { return false }
    elements.insert(element, at: position)
    reindex(from: position)
    return true
  }

  /// Replaces the element with the same id, or appends it.
  public mutating func updateOrAppend(_ element: Element) {
    if let position = structure.index[element.id] {
      elements[position] = element
    } else {
      append(element)
    }
  }

  /// Removes and returns the element with `id`, if present.
  @discardableResult
  public mutating func remove(id: ID) -> Element? {
    guard let position = structure.index[id] else { return nil }
    return remove(at: position)
  }

  /// Removes and returns the element at `position`.
  @discardableResult
  public mutating func remove(at position: Int) -> Element {
    let element = elements.remove(at: position)
    structure.index[element.id] = nil
    reindex(from: position)
    return element
  }

  /// Removes every element for which `shouldBeRemoved` is true.
  public mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows {
    try elements.removeAll(where: shouldBeRemoved)
    rebuildIndex()
  }

  /// Removes every element.
  public mutating func removeAll() {
    elements.removeAll()
    rebuildIndex()
  }

  /// Sorts the elements in place.
  public mutating func sort(by areInIncreasingOrder: (Element, Element) throws -> Bool) rethrows {
    try elements.sort(by: areInIncreasingOrder)
    rebuildIndex()
  }

  private mutating func reindex(from position: Int) {
    for offset in position..<elements.count {
      structure.index[elements[offset].id] = offset
    }
    structure.generation = Self.nextGeneration()
  }

  private mutating func rebuildIndex() {
    structure.index = Dictionary(uniqueKeysWithValues: elements.enumerated().map { ($0.element.id, $0.offset) })
    structure.generation = Self.nextGeneration()
  }

  private static func nextGeneration() -> UInt64 {
    generations.add(1, ordering: .relaxed).newValue
  }
}

/// Stamps handed out to structural changes; unique across all collections, so
/// two collections never share a stamp by accident.
private let generations = Atomic<UInt64>(0)

/// The collection of a feature's elements.
public typealias IdentifiedArrayOf<Element: Identifiable> = IdentifiedArray<Element>

extension IdentifiedArray: ExpressibleByArrayLiteral {
  public init(arrayLiteral elements: Element...) {
    self.init(uniqueElements: elements)
  }
}

extension IdentifiedArray: Equatable where Element: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.elements == rhs.elements }
}

extension IdentifiedArray: Hashable where Element: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(elements) }
}

extension IdentifiedArray: Sendable where Element: Sendable, Element.ID: Sendable {}
extension IdentifiedArray.Structure: Sendable where Element.ID: Sendable {}

extension IdentifiedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(elements)
  }
}

extension IdentifiedArray: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    let elements = try container.decode([Element].self)
    self.init()
    for element in elements {
      guard append(element) else {
        throw DecodingError.dataCorruptedError(
          in: container, debugDescription: "Duplicate id \(element.id) in an identified collection; ids must be unique."
        )
      }
    }
  }
}

extension IdentifiedArray: CustomStringConvertible {
  public var description: String { elements.description }
}

extension IdentifiedArray: CustomReflectable {
  /// Reflects as the plain list of elements, hiding the index.
  public var customMirror: Mirror { Mirror(self, unlabeledChildren: elements, displayStyle: .collection) }
}
