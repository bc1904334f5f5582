/// What happens to related entities when an entity is erased.
public enum DeleteRule: Sendable, Hashable {
    /// Remove the links on both sides; related entities stay. The default.
    case nullify
    /// Remove the links and erase the related entities, with their own delete rules and hooks.
    case cascade
    /// Ownership (BartlebysCore's erasure rules): remove the links, and erase each related entity that
    /// no longer has any owner — no entity links to it through any relation with this rule. An
    /// entity owned by several owners survives until the last one is erased; chains cascade, and
    /// cycles of ownership terminate.
    ///
    /// ```swift
    /// @Relationship(deleteRule: .cascadeOrphans) var files: [File]?
    /// ```
    case cascadeOrphans
    /// Refuse to erase the entity while it links to anything through this relation: erasing it
    /// throws ``RelataError`` with code ``RelataError/Code/deleteDenied`` naming the relation and
    /// the linked ids, and changes nothing — also when the entity is reached by a cascade.
    case deny
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
