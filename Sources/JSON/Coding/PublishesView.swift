/// A state whose JSON carries, after its own members, a member `view` of
/// values derived from them for the screens that show it: TCA's view state,
/// published by the daemon beside the state it derives from.
///
/// A thin client (`tcactl get`, `tcaweb`, a client in another language) then
/// reads what a screen shows, a cart line's subtotal or whether paying is
/// possible, instead of computing it again from the state with logic of its
/// own that could disagree with the feature's:
///
/// ```swift
/// extension Cart.State: PublishesView {
///   public struct View: Encodable { let itemCount: Int; let isPayEnabled: Bool }
///   public var view: View { View(itemCount: items.map(\.quantity).reduce(0, +), isPayEnabled: !items.isEmpty) }
/// }
/// ```
///
/// The view is encoded with the state (``JSONValueEncoder``), so it is in
/// every snapshot, `get` and diff, changes exactly when what it derives from
/// changes, and can be watched at `/cart/view/itemCount` like any part of
/// the state. It is never read back: decoding a state ignores the member
/// (synthesized `Decodable` reads only the keys it knows), and a state read
/// from the journal publishes the same view again. So the view must be a
/// function of the state alone, and the state must have no stored member
/// named `view`. Only a feature's state should publish one: a value that is
/// also sent elsewhere (a document to storage, a request's body) would carry
/// its view there too.
public protocol PublishesView {
  /// What the view holds.
  associatedtype View: Encodable
  /// The values derived from this state, for screens.
  var view: View { get }
}

/// The member a ``PublishesView`` state's view is published as.
public enum PublishesViewKey {
  public static let name = "view"
}
