/// One step of an action path as typed: a case or field name, and for a
/// collection the element id between brackets (`rows[3]`, `rows["a.b"]`).
struct PathStep: Hashable {
  /// The case or field name.
  var name: String
  /// The id text between the brackets, quotes included, if any.
  var id: String?

  /// The step as typed.
  var text: String { id.map { "\(name)[\($0)]" } ?? name }

  /// The steps of `path`: names separated by dots, each optionally followed
  /// by a bracketed id in which dots, brackets and quotes may appear inside
  /// quotes. An empty path has no steps.
  static func steps(of path: String) throws(ActionPathError) -> [PathStep] {
    guard !path.isEmpty else { return [] }
    var steps: [PathStep] = []
    var step = PathStep(name: "")
    var characters = path.makeIterator()
    var afterID = false
    func finish() throws(ActionPathError) {
      guard !step.name.isEmpty else {
        throw .malformedPath(path: path, problem: "a step is empty; write steps as name.name[id].name")
      }
      steps.append(step)
      step = PathStep(name: "")
      afterID = false
    }
    while let character = characters.next() {
      switch character {
      case ".":
        try finish()
      case "[":
        guard !afterID, !step.name.isEmpty else {
          throw .malformedPath(path: path, problem: "'[' must follow a step name, as in rows[3]")
        }
        step.id = try readID(&characters, path: path)
        afterID = true
      case "]":
        throw .malformedPath(path: path, problem: "']' has no matching '['")
      default:
        guard !afterID else {
          throw .malformedPath(path: path, problem: "'\(step.text)' must be followed by '.' or the end of the path")
        }
        step.name.append(character)
      }
    }
    try finish()
    return steps
  }

  /// The id up to the closing bracket, which `characters` is left after.
  private static func readID(_ characters: inout String.Iterator, path: String) throws(ActionPathError) -> String {
    var id = ""
    var quote: Character?
    var escaped = false
    while let character = characters.next() {
      if let open = quote {
        if escaped {
          escaped = false
        } else if character == "\\" && open == "\"" {
          escaped = true
        } else if character == open {
          quote = nil
        }
      } else if character == "]" {
        guard !id.isEmpty else { throw .malformedPath(path: path, problem: "an element id is empty: '[]'") }
        return id
      } else if character == "\"" || character == "'" {
        quote = character
      }
      id.append(character)
    }
    throw .malformedPath(path: path, problem: "'[' has no matching ']'")
  }
}
