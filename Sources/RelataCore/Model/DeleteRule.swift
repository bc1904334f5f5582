/// What happens to related entities when an entity is erased.
public enum DeleteRule: Sendable, Hashable {
    /// Remove the links on both sides; related entities stay. The default.
    case nullify
    /// Remove the links and erase the related entities, with their own delete rules and hooks.
    case cascade
}

/// Marks a to-one relation as required: it cannot be set to `.null`.
///
/// ```swift
/// @Relationship(.required)
/// var author: User?
/// ```
public enum RelationOption: Sendable, Hashable {
    /// The relation cannot be explicitly nullified.
    case required
}
