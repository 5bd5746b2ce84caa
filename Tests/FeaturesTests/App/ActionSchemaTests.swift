import ActionLanguage
import ComposableCore
import ComposableTesting
import FoundationEssentials
import JSON
import TestSupport
import Testing
import Wire

@testable import Features

/// The App's action schema against the real enums: every listed path builds
/// an action that decodes, and real actions render as command lines that
/// parse back to themselves.
@Suite(.ownThreads) struct AppActionSchemaTests {
  let schema = AppFeature.Action.actionSchema

  @Test func everyPathDecodesAsAnAppActionAndReencodesTheSame() throws {
    let samples = schema.samples
    #expect(samples.count == schema.allPaths.count)
    #expect(Set(samples.map(\.entry.path)).count == samples.count, "paths are unique")
    for sample in samples {
      // The daemon's decoder, which walks the value, reads the action.
      let action = try #require(
        try? JSONValueDecoder.decode(AppFeature.Action.self, from: sample.action),
        "\(sample.entry.path) is refused by the daemon: \(sample.action)")
      #expect(try CanonicalJSON.value(of: action) == sample.action, "\(sample.entry.path)")
      // JSONEncoder's shape of the same action (enums as Foundation writes
      // them, as journals of format 1 hold them) reads as the same action.
      let foundation = try JSONParser.parse(Array(FoundationJSON.encoder().encode(action)))
      #expect(try JSONValueDecoder.decode(AppFeature.Action.self, from: foundation) == action, "\(sample.entry.path)")
      #expect(
        try FoundationJSON.decoder().decode(AppFeature.Action.self, from: Data(CanonicalJSON.encode(foundation)))
          == action, "\(sample.entry.path)")
    }
  }

  /// The daemon's encoder against JSONEncoder on the App's state, as every
  /// sample action in turn changes it (their effects are not run): the
  /// state reads back from the daemon's JSON, and JSONEncoder's (enums in
  /// Foundation's shape, as format 1 journals hold them) reads as the same
  /// state and encodes as the daemon's JSON.
  @Test func theStateEncodesAsJSONEncoderWritesItAfterEverySampleAction() throws {
    var state = AppFeature.State()
    let app = AppFeature()
    var reduced = 0
    for sample in schema.samples {
      guard let action = try? JSONValueDecoder.decode(AppFeature.Action.self, from: sample.action) else { continue }
      _ = withDependencies {
        $0.date = .constant(Date(timeIntervalSince1970: 1_790_000_000.5))
      } operation: {
        app.reduce(into: &state, action: action)
      }
      reduced += 1
      let json = try JSONValueEncoder.encode(state)
      #expect(try JSONValueDecoder.decode(AppFeature.State.self, from: json) == state, "after \(sample.entry.path)")
      let foundation = try JSONParser.parse(Array(FoundationJSON.encoder().encode(state)))
      let read = try JSONValueDecoder.decode(AppFeature.State.self, from: foundation)
      #expect(read == state, "after \(sample.entry.path)")
      #expect(try JSONValueEncoder.encode(read) == json, "after \(sample.entry.path)")
    }
    #expect(reduced == schema.samples.count)
  }

  /// The seed apps' contract with their clients (``assertContract``).
  @Test func contract() {
    assertContract(of: AppFeature.self, states: [AppFeature.State()])
  }

  /// Every action enum of the seed apps is reached from the root's schema.
  @Test func everyDescribedEnumIsReached() throws {
    var checked = Set<String>()
    var pending = [ActionSchemaReference(AppFeature.Action.self)]
    while let reference = pending.popLast() {
      guard checked.insert(reference.typeName).inserted else { continue }
      for actionCase in reference.schema.cases {
        for argument in actionCase.arguments {
          switch argument.value.kind {
          case .action(let nested): pending.append(nested)
          case .identified(_, let element): pending.append(element)
          case .stack(let element, let operations): pending.append(contentsOf: [element, operations])
          default: break
          }
        }
      }
    }
    #expect(
      checked == [
        "AppFeature.Action", "Counter.Action", "Dice.Action", "Dice.Action.ViewAction",
        "Dice.Action.InternalAction", "PresentationAction<Dice.Destination.Action>", "Dice.Destination.Action",
        "DiceHistory.Action",
        "ProductList.Action", "ProductRow.Action", "AddToCart.Action", "Cart.Action",
        "PresentationAction<CartAlert.Action>", "CartAlert.Action",
        "Profile.Action", "BMI.Action", "BMIInput.Action", "PresentationAction<BMIInput.Alert>", "BMIInput.Alert",
        "BMIHistory.Action", "GIFSearch.Action",
        "Parent.Action", "PresentationAction<Settings.Action>", "Settings.Action", "Inventory.Action",
        "PresentationAction<Inventory.Destination.Action>", "Inventory.Destination.Action", "ItemForm.Action",
        "Inventory.Path.Action", "ItemDetail.Action", "StackOperation",
      ])
  }

  @Test func everySampleRendersAsACommandThatParsesBack() throws {
    for sample in schema.samples {
      let command = try #require(ActionPath.command(for: sample.action, schema: schema), "\(sample.entry.path)")
      #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, schema: schema) == sample.action)
    }
  }

  static let actions: [(AppFeature.Action, String)] = [
    (.cart(.addItem(3)), "cart.addItem 3"),
    (.cart(.orderPlaced(orderID: nil)), "cart.orderPlaced"),
    (.cart(.orderPlaced(orderID: 7)), "cart.orderPlaced 7"),
    (.cart(.alert(.presented(.confirmPurchase))), "cart.alert.presented.confirmPurchase"),
    (.counter(.incrementButtonTapped), "counter.incrementButtonTapped"),
    (
      .counter(.numberFactFailed(EffectFailure(.timeout, "slow"))),
      #"counter.numberFactFailed '{"kind":"timeout","message":"slow"}'"#
    ),
    (
      .products(.rows(.element(id: 3, action: .addToCart(.plusButtonTapped)))),
      "products.rows[3].addToCart.plusButtonTapped"
    ),
    (.bmi(.input(.binding(.set(\.height, "180")))), "bmi.input.binding.height 180"),
    (.bmi(.input(.binding(.set(\.weight, "70.5 ")))), "bmi.input.binding.weight '70.5 '"),
    (.bmi(.tabSelected(.history)), "bmi.tabSelected History"),
    (
      .bmi(.history(.delete(id: UUID(uuidString: "3F2504E0-4F89-41D3-9A0C-0305E82C3301")!))),
      "bmi.history.delete 3F2504E0-4F89-41D3-9A0C-0305E82C3301"
    ),
    (.dice(.view(.rollButtonTapped)), "dice.view.rollButtonTapped"),
    (.dice(.internal(.rollCompleted(4))), "dice.internal.rollCompleted 4"),
    (
      .dice(.destination(.presented(.history(.closeButtonTapped)))),
      "dice.destination.presented.history.closeButtonTapped"
    ),
    (.dice(.destination(.dismiss)), "dice.destination.dismiss"),
    (.tabSelected(.products), "tabSelected products"),
    (.search(.textChanged("funny cats")), "search.textChanged 'funny cats'"),
    (.recovered, "recovered"),
    (.dice(.internal(.recovered)), "dice.internal.recovered"),
    (.bmi(.input(.recovered)), "bmi.input.recovered"),
    (.cart(.recovered), "cart.recovered"),
  ]

  @Test(arguments: actions)
  func describesARealActionAndParsesItBack(action: AppFeature.Action, line: String) throws {
    #expect(ActionPath.describe(action) == line)
    let json = try CanonicalJSON.value(of: action)
    let command = try #require(ActionPath.command(for: json, schema: schema))
    #expect(try ActionPath.parse(path: command.path, arguments: command.arguments, schema: schema) == json)
    #expect(
      try ActionPath.parse(path: command.path, arguments: command.arguments, as: AppFeature.Action.self) == action)
  }

  /// What the metrics count actions by: the case's path, with no
  /// arguments and no collection's id, so that the counts are as few as
  /// the cases.
  @Test func aCasePathLeavesOutArgumentsAndIds() throws {
    let expected: [(AppFeature.Action, String)] = [
      (.cart(.addItem(3)), "cart.addItem"),
      (.cart(.addItem(4)), "cart.addItem"),
      (
        .products(.rows(.element(id: 3, action: .addToCart(.plusButtonTapped)))),
        "products.rows[].addToCart.plusButtonTapped"
      ),
      (.bmi(.input(.binding(.set(\.height, "180")))), "bmi.input.binding.height"),
      (.dice(.destination(.dismiss)), "dice.destination.dismiss"),
      (.tabSelected(.products), "tabSelected"),
      (.counter(.numberFactFailed(EffectFailure(.timeout, "slow"))), "counter.numberFactFailed"),
    ]
    for (action, path) in expected {
      #expect(ActionPath.casePath(of: try CanonicalJSON.value(of: action), schema: schema) == path)
    }
    // Every case the schema lists has a path, one per listed path.
    var paths: Set<String> = []
    for sample in schema.samples {
      let path = try #require(ActionPath.casePath(of: sample.action, schema: schema), "\(sample.entry.path)")
      paths.insert(path)
    }
    #expect(paths.count == schema.samples.count)
    #expect(ActionPath.casePath(of: .object(["nothing": .null]), schema: schema) == nil)
  }

  @Test func parsesTheDesignBriefsExample() throws {
    #expect(
      try ActionPath.parse(path: "cart.addItem", arguments: ["3"], as: AppFeature.Action.self) == .cart(.addItem(3)))
    #expect(
      try ActionPath.parse(path: "cart.addItem", arguments: ["3"], schema: schema)
        == .object(["cart": .object(["addItem": .int(3)])]))
    #expect(
      try ActionPath.parse(path: "bmi.input.binding", arguments: ["height", "180"], as: AppFeature.Action.self)
        == .bmi(.input(.binding(.set(\.height, "180")))))
    #expect(
      try ActionPath.parse(path: "bmi.tabSelected", arguments: ["history"], as: AppFeature.Action.self)
        == .bmi(.tabSelected(.history)))
  }

  static let mistakes: [(String, [String], String)] = [
    ("cart.addItm", ["3"], "unknown action 'cart.addItm': did you mean cart.addItem <Int>?"),
    ("cart.addItem", [], "cart.addItem takes 1 argument (Int), got 0"),
    ("cart.addItem", ["three"], "cart.addItem: 'three' is not an Int"),
    (
      "cart", [],
      "cart is a group of actions; expected one of: addItem, incrementItem, decrementItem, removeItem, payButtonTapped, alert"
    ),
    ("dice.rollButtonTapped", [], "unknown action 'dice.rollButtonTapped': did you mean dice.view.rollButtonTapped?"),
    (
      "addItem", ["3"],
      "unknown action 'addItem': did you mean cart.addItem <Int>, inventory.destination.presented.addItem.binding.name <value: String> or inventory.destination.presented.addItem.binding.quantity <value: Int>?"
    ),
    (
      "products.rows.addToCart.plusButtonTapped", [],
      "products.rows is a collection; name an element by id, as in products.rows[<id: Int>].<addToCart>"
    ),
    ("products.rows[x].addToCart.plusButtonTapped", [], "products.rows[x]: 'x' is not an Int (id)"),
    ("tabSelected", ["prodcts"], "tabSelected: 'prodcts' is not an AppTab: did you mean products?"),
    (
      "bmi.input.binding.hieght", ["180"],
      "unknown field 'bmi.input.binding.hieght': did you mean bmi.input.binding.height <value: String>?"
    ),
    ("dice.destination", [], "dice.destination is a group of actions; expected one of: presented, dismiss"),
    (
      "cart.addItem.now", ["3"],
      "cart.addItem is an action, not a group: nothing can follow it ('now'); write cart.addItem <Int>"
    ),
  ]

  @Test(arguments: mistakes)
  func explainsAMistakeAgainstTheRealSchema(path: String, arguments: [String], message: String) {
    do {
      _ = try ActionPath.parse(path: path, arguments: arguments, schema: schema)
      Issue.record("\(path) \(arguments) parsed")
    } catch {
      #expect(error.description == message)
    }
  }

  @Test func listsPathsForTcactlActions() {
    let usages = schema.allPaths.map(\.usage)
    #expect(usages.contains("products.rows[<id: Int>].addToCart.plusButtonTapped"))
    #expect(usages.contains("tabSelected <counter|dice|products|cart|profile|bmi|search|parent|inventory>"))
    #expect(usages.contains("inventory.path[<id: Int>].detail.editButtonTapped"))
    #expect(usages.contains("inventory.path.popFrom <id: Int>"))
    #expect(usages.contains("inventory.destination.presented.editItem.binding.quantity <value: Int>"))
    #expect(usages.contains("parent.settings.presented.binding.theme <value: system|light|dark>"))
    #expect(usages.contains("bmi.input.binding.height <value: String>"))
    #expect(usages.contains("cart.orderPlaced <orderID: Int?>"))
    #expect(usages.contains("products.productsResponse <[Product] (JSON)>"))
    #expect(usages.contains("dice.destination.dismiss"))
    for recovered in [
      "recovered", "counter.recovered", "dice.internal.recovered", "products.recovered", "cart.recovered",
      "profile.recovered", "bmi.recovered", "bmi.input.recovered", "bmi.history.recovered", "search.recovered",
    ] {
      #expect(usages.contains(recovered), "\(recovered)")
    }
  }
}
