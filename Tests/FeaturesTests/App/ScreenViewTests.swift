import ComposableCore
import FoundationEssentials
import JSON
import Testing

@testable import Features

/// What the seed screens show is published in their states' views, so that
/// `tcactl get`, `tcaweb` and any client read it rather than compute it.
@Suite struct ScreenViewTests {
  /// The value at `keys` of `json`.
  func value(_ json: JSONValue, _ keys: String...) -> JSONValue? {
    keys.reduce(Optional(json)) { value, key in
      switch value {
      case .object(let members)?: members[key]
      case .array(let elements)?: Int(key).flatMap { elements.indices.contains($0) ? elements[$0] : nil }
      default: nil
      }
    }
  }

  @Test func theCartPublishesItsLinesPricesItsBadgeAndWhetherPayIsEnabled() throws {
    let jacket = Product.samples[2]
    var cart = Cart.State(catalog: [jacket], items: [CartItem(product: jacket, quantity: 2)])
    var json = try CanonicalJSON.value(of: cart)
    #expect(value(json, "view", "itemCount") == .int(2))
    #expect(value(json, "view", "totalText") == .string(StorePriceFormat.dollars(jacket.price * 2)))
    #expect(value(json, "view", "isPayEnabled") == .bool(true))
    #expect(value(json, "items", "0", "view", "priceText") == .string(StorePriceFormat.dollars(jacket.price)))
    #expect(value(json, "items", "0", "view", "subtotalText") == .string(StorePriceFormat.dollars(jacket.price * 2)))
    cart.orderStatus = .sending
    json = try CanonicalJSON.value(of: cart)
    #expect(value(json, "view", "isPayEnabled") == .bool(false))
    #expect(value(json, "view", "orderText") == .string("Sending the order…"))
  }

  @Test func theProfileAndTheListSayWhatALoadIsInWords() throws {
    let loaded = try CanonicalJSON.value(of: Profile.State(status: .loaded, profile: .sample))
    #expect(value(loaded, "view", "displayName") == .string("John Doe"))
    #expect(value(loaded, "view", "statusText") == .null)
    let failed = try CanonicalJSON.value(of: ProductList.State(status: .failed("Could not connect to the store.")))
    #expect(value(failed, "view", "statusText") == .string("Could not connect to the store."))
    #expect(value(failed, "view", "canRetry") == .bool(true))
    let loading = try CanonicalJSON.value(of: ProductList.State(status: .loading))
    #expect(value(loading, "view", "statusText") == .string("Loading…"))
  }

  @Test func aDetailScreenPublishesItsItemNotOnlyItsID() throws {
    var inventory = Inventory.State(items: [Item(id: 1, name: "Tea", quantity: 3)])
    inventory.path.append(.detail(ItemDetail.State(itemID: 1)))
    inventory.path.append(.detail(ItemDetail.State(itemID: 9)))
    let json = try CanonicalJSON.value(of: inventory)
    #expect(value(json, "view", "path", "0", "item", "name") == .string("Tea"))
    #expect(value(json, "view", "path", "1", "item") == .null)
    #expect(value(json, "view", "unitCount") == .int(3))
  }

  @Test func theSearchPublishesItsCardsSizesAndWhatItIsDoing() throws {
    let card = GifCard(id: "a", gifURL: "https://example.test/a.gif", width: 200, height: 100)
    let pending = try CanonicalJSON.value(of: GIFSearch.State(text: "cats", results: [card]))
    #expect(value(pending, "view", "hasPendingSearch") == .bool(true))
    #expect(value(pending, "view", "statusText") == .string("Searching…"))
    #expect(value(pending, "results", "0", "view", "sizeRatio") == .double(0.5))
    let none = try CanonicalJSON.value(of: GIFSearch.State(text: "zzz", query: "zzz"))
    #expect(value(none, "view", "statusText") == .string("No GIFs found for “zzz”."))
  }

  @Test func theBMIHistoryWritesDatesForPeople() throws {
    let record = BMIRecord(
      id: UUID(counting: 1), height: 180, weight: 75, date: Date(timeIntervalSince1970: 1_700_000_000.5))
    let json = try CanonicalJSON.value(of: BMIHistory.State(records: [record]))
    #expect(value(json, "view", "rows", "0", "dateText") == .string("14 Nov 2023, 22:13 UTC"))
    #expect(value(json, "view", "rows", "0", "bmiText") == .string("23.1"))
    let form = try CanonicalJSON.value(of: BMIInput.State(height: "180", weight: "75"))
    #expect(value(form, "view", "isSaveButtonEnabled") == .bool(true))
  }

  /// A view is published, never read back: the state decodes from its JSON
  /// without it, and publishes the same view again.
  @Test func aViewIsNotReadBack() throws {
    let state = AppFeature.State()
    let json = try CanonicalJSON.value(of: state)
    let read = try CanonicalJSON.decode(AppFeature.State.self, from: json)
    #expect(read == state)
    #expect(try CanonicalJSON.value(of: read) == json)
  }
}
