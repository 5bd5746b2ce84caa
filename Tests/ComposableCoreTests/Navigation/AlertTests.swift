import ComposableCore
import ComposableTesting
import JSON
import Testing

/// A checkout presenting seed 001's pay alert, and a confirmation dialog.
private struct Checkout: Reducer {
  struct State: Equatable, Sendable, Codable {
    var alert: AlertState<Alert>?
    var dialog: ConfirmationDialogState<Dialog>?
    var log: [String] = []
  }
  enum Action: Equatable, Sendable, Codable {
    case payButtonTapped
    case moreButtonTapped
    case alert(PresentationAction<Alert>)
    case dialog(PresentationAction<Dialog>)

    var alert: PresentationAction<Alert>? { if case .alert(let a) = self { a } else { nil } }
    var dialog: PresentationAction<Dialog>? { if case .dialog(let a) = self { a } else { nil } }
  }
  enum Alert: Equatable, Sendable, Codable { case confirmPurchase, cancelPurchase }
  enum Dialog: Equatable, Sendable, Codable { case emptyCart }

  static let payAlert = AlertState<Alert>(
    title: "Confirm your purchase", message: "Do you want to proceed with your purchase of $100.59?",
    buttons: [
      ButtonState(action: .confirmPurchase, label: "Pay $100.59"),
      ButtonState(role: .cancel, action: .cancelPurchase, label: "Cancel"),
    ])
  static let thanks = AlertState<Alert>(
    title: "Thank you!", message: "Your order is in process.", buttons: [ButtonState(label: "Done")])
  static let more = ConfirmationDialogState<Dialog>(
    title: "Cart", titleVisibility: .hidden,
    buttons: [ButtonState(role: .destructive, action: .emptyCart, label: "Empty the cart"), ButtonState(label: "Keep")])

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      switch action {
      case .payButtonTapped: state.alert = Self.payAlert
      case .moreButtonTapped: state.dialog = Self.more
      case .alert(.presented(.confirmPurchase)):
        state.log.append("paid")
        state.alert = Self.thanks
      case .alert(.presented(.cancelPurchase)): state.log.append("cancelled")
      case .dialog(.presented(.emptyCart)): state.log.append("emptied")
      case .alert(.dismiss), .dialog(.dismiss): break
      }
      return .none
    }
    .ifLet(\.alert, action: CasePath(Action.alert, \.alert))
    .ifLet(\.dialog, action: CasePath(Action.dialog, \.dialog))
  }
}

/// TCA's alert tests for the daemon's alerts: a button sends its action and
/// closes the alert, a button that is not there cannot be pressed, and the
/// alert is state a client draws from its JSON.
@Suite struct AlertTests {
  @Test func aButtonsActionReachesTheFeatureAndClosesTheAlert() {
    let store = TestStore(initialState: Checkout.State()) { Checkout() }
    store.send(.payButtonTapped) { $0.alert = Checkout.payAlert }
    store.send(.alert(.presented(.cancelPurchase))) {
      $0.log = ["cancelled"]
      $0.alert = nil
    }
  }

  /// An alert the feature presents while handling a button stays.
  @Test func anAlertPresentedByAButtonsActionStays() {
    let store = TestStore(initialState: Checkout.State()) { Checkout() }
    store.send(.payButtonTapped) { $0.alert = Checkout.payAlert }
    store.send(.alert(.presented(.confirmPurchase))) {
      $0.log = ["paid"]
      $0.alert = Checkout.thanks
    }
    store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func aButtonThatIsNotOnTheAlertCannotBePressed() {
    let store = TestStore(initialState: Checkout.State(alert: Checkout.thanks)) { Checkout() }
    withKnownIssue {
      store.send(.alert(.presented(.confirmPurchase)))
    } matching: { issue in
      issue.comments.contains {
        $0.rawValue.contains("the alert shown has no button that sends confirmPurchase; its buttons: Done")
      }
    }
    withKnownIssue {
      store.send(.dialog(.presented(.emptyCart)))
    } matching: { issue in
      issue.comments.contains { $0.rawValue.contains("nothing is presented at dialog") }
    }
  }

  /// Closing an alert that is not shown is refused as pressing one of its
  /// buttons is: there is nothing to close.
  @Test func anAlertThatIsNotShownCannotBeDismissed() throws {
    let store = Store(initialState: Checkout.State(), reducer: Checkout(), executor: RecordingExecutor())
    #expect {
      try store.sendRefusingDropped(.alert(.dismiss))
    } throws: { error in
      (error as? DroppedAction)?.reason == "nothing is presented at alert"
    }
    #expect(store.version == 0)
  }

  @Test func aConfirmationDialogIsPresentedAndAnsweredTheSameWay() {
    let store = TestStore(initialState: Checkout.State()) { Checkout() }
    store.send(.moreButtonTapped) { $0.dialog = Checkout.more }
    store.send(.dialog(.presented(.emptyCart))) {
      $0.log = ["emptied"]
      $0.dialog = nil
    }
  }

  /// The daemon's store refuses a press of a button that is not shown,
  /// saying which buttons are.
  @Test func aStoreRefusingDroppedActionsNamesTheButtonsShown() throws {
    let store = Store(
      initialState: Checkout.State(alert: Checkout.thanks), reducer: Checkout(), executor: RecordingExecutor())
    #expect {
      try store.sendRefusingDropped(.alert(.presented(.cancelPurchase)))
    } throws: { error in
      (error as? DroppedAction)?.reason == "the alert shown has no button that sends cancelPurchase; its buttons: Done"
    }
    #expect(store.state.alert == Checkout.thanks)
  }

  @Test func anAlertIsJSONAClientDrawsFrom() throws {
    let json = try JSONValueEncoder.encode(Checkout.payAlert)
    #expect(
      CanonicalJSON.text(json)
        == #"{"buttons":[{"action":"confirmPurchase","label":"Pay $100.59","path":null,"role":null},"#
        + #"{"action":"cancelPurchase","label":"Cancel","path":null,"role":"cancel"}],"#
        + #""message":"Do you want to proceed with your purchase of $100.59?","title":"Confirm your purchase"}"#)
    #expect(try CanonicalJSON.decode(AlertState<Checkout.Alert>.self, from: json) == Checkout.payAlert)
    let dialog = try JSONValueEncoder.encode(Checkout.more)
    #expect(try CanonicalJSON.decode(ConfirmationDialogState<Checkout.Dialog>.self, from: dialog) == Checkout.more)
    #expect(CanonicalJSON.text(dialog).contains(#""titleVisibility":"hidden""#))
  }
}
