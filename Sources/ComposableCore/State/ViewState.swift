import JSON

/// A state that publishes, beside its members, values derived from them for
/// its screens (TCA's view state): see `PublishesView` in the JSON module,
/// which the daemon's encoder reads. Named here so that a feature conforms
/// with the reducer core alone.
public typealias PublishesView = JSON.PublishesView
