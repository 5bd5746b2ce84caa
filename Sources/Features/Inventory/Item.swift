/// One thing in the inventory (seed 003's `Item`).
public struct Item: Equatable, Sendable, Codable, Identifiable {
  /// Handed out by the inventory, in order, never reused.
  public var id: Int
  public var name: String
  public var quantity: Int
  public var notes: String

  public init(id: Int, name: String = "", quantity: Int = 1, notes: String = "") {
    self.id = id
    self.name = name
    self.quantity = quantity
    self.notes = notes
  }

  /// The largest quantity an item may have.
  public static let maximumQuantity = 1_000_000
  /// The longest name, in characters.
  public static let maximumNameLength = 80

  /// Why ``name`` cannot be saved, or `nil` when it can.
  public var nameError: String? {
    if name.allSatisfy(\.isWhitespace) { return "Enter a name." }
    if name.count > Self.maximumNameLength { return "Use at most \(Self.maximumNameLength) characters." }
    return nil
  }

  /// Why ``quantity`` cannot be saved, or `nil` when it can.
  public var quantityError: String? {
    guard (0...Self.maximumQuantity).contains(quantity) else {
      return "Enter a quantity from 0 to \(Self.maximumQuantity)."
    }
    return nil
  }
}
