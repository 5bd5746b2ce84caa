import JSON

/// A valid action for one listed path, built from sample values: the
/// conformance check reads it, and its variants, with the real action type
/// to prove the schema matches the enum.
public struct ActionSample: Sendable {
  /// The path the sample exercises.
  public let entry: ActionPathEntry
  /// The action's JSON, as the enum's synthesized `Codable` writes it.
  public let action: JSONValue
  /// What the path ends in.
  let leaf: PathListing.Leaf
  /// The nesting around the leaf's JSON, element ids as placeholders.
  let frames: [PathFrame]
}

extension ActionSchema {
  /// A valid action for every path of ``allPaths`` (but recursion markers),
  /// built by filling each entry's JSON with its examples.
  public var samples: [ActionSample] {
    PathWalker.listings(of: self).compactMap { listing in
      listing.sample.map { ActionSample(entry: listing.entry, action: $0, leaf: listing.leaf, frames: listing.frames) }
    }
  }
}
