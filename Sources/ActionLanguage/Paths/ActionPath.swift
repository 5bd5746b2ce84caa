import FoundationEssentials
import JSON

/// Actions written as command lines: `tcactl send cart.addItem 3` for
/// `AppFeature.Action.cart(.addItem(3))`.
///
/// Grammar (words are the program's arguments, after the shell's quoting):
///
/// ```
/// command  = path word*
/// path     = step ("." step)*
/// step     = name ("[" id "]")?        id: per the collection's id type; may be "quoted"
/// ```
///
/// Steps name enum cases from the root down. A case whose one value is a
/// nested action continues the path (`dice.view.rollButtonTapped`,
/// `dice.destination.presented.history.closeButtonTapped`, `dice.destination.dismiss`);
/// a collection names its element by id (`products.rows[3].addToCart.plusButtonTapped`);
/// a binding ends with the field, its value following (`bmi.input.binding.height 180`).
/// Any other case ends the path, and the words are its associated values in
/// order: plain (`3`, `products`, `hello`) or as JSON literals of the right
/// type (`"two words"`, `null`, `{"kind":"timeout","message":"slow"}`);
/// trailing optionals may be left out.
public enum ActionPath {
  /// The JSON of the action that `path` and `arguments` name in `schema`,
  /// exactly as the action type's synthesized `Codable` decodes it.
  public static func parse(path: String, arguments: [String], schema: ActionSchema) throws(ActionPathError)
    -> JSONValue
  {
    try ActionPathParser(root: schema, steps: PathStep.steps(of: path), arguments: arguments).parse()
  }

  /// The action that `path` and `arguments` name in `schema`, read once into
  /// its JSON and its command line (``ParsedAction``).
  public static func read(path: String, arguments: [String], schema: ActionSchema) throws(ActionPathError)
    -> ParsedAction
  {
    try ActionPathParser(root: schema, steps: PathStep.steps(of: path), arguments: arguments).read()
  }

  /// The action that `path` and `arguments` name, decoded as `Action`.
  public static func parse<Action: DescribedAction>(
    path: String, arguments: [String], as type: Action.Type = Action.self
  ) throws(ActionPathError) -> Action {
    let json = try parse(path: path, arguments: arguments, schema: Action.actionSchema)
    do {
      return try json.decode(Action.self)
    } catch let error as DecodingError {
      throw .undecodable(path: path, typeName: TypeName.of(Action.self), problem: error.briefDescription)
    } catch {
      throw .undecodable(path: path, typeName: TypeName.of(Action.self), problem: "\(error)")
    }
  }

  /// The command line for `action` (`cart.addItem 3`), for `tcactl watch` and
  /// logs; compact JSON when the action does not fit `schema`.
  public static func describe(_ action: JSONValue, schema: ActionSchema) -> String {
    command(for: action, schema: schema)?.description ?? CanonicalJSON.text(action)
  }

  /// The command line for `action`, or its compact JSON should its schema
  /// not describe it.
  public static func describe<Action: DescribedAction>(_ action: Action) -> String {
    guard let json = try? JSONValue(encoding: action) else { return "\(action)" }
    return describe(json, schema: Action.actionSchema)
  }

  /// The path of `action`'s case without its arguments and with the
  /// collections' ids left out, e.g. `products.rows[].addToCart.plusButtonTapped`
  /// for `products.rows[3].addToCart.plusButtonTapped`: a name per case of
  /// `schema`, which metrics count actions by. `nil` when the action does
  /// not fit `schema`.
  public static func casePath(of action: JSONValue, schema: ActionSchema) -> String? {
    ActionRenderer.casePath(of: action, schema: schema)
  }

  /// The path and argument words for `action`, or `nil` when the action does
  /// not fit `schema`. ``parse(path:arguments:schema:)`` gives `action` back.
  public static func command(for action: JSONValue, schema: ActionSchema) -> ActionCommand? {
    ActionRenderer.command(for: action, schema: schema)
  }
}
