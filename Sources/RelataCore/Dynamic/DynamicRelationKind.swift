/// The kind of a dynamic relationship between two entities (BartlebysCore's `Relationship`), seen from
/// the subject of ``Context/relate(_:_:_:)``.
///
/// - `owns`: the subject owns the object. When an owner is erased, what it owns is erased too,
///   unless another owner (dynamic, or declared through a `.cascadeOrphans` relation) is alive.
/// - `ownedBy`: the inverse of `owns` — `b ownedBy a` is the same relationship as `a owns b`,
///   stored once.
/// - `free`: the two are related, with no effect on erasure. Symmetric, stored once.
public enum DynamicRelationKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The subject owns the object: erasing the last owner erases it.
    case owns
    /// The subject is owned by the object (the same relationship as the object owning the subject).
    case ownedBy
    /// Related, with no effect on erasure.
    case free
}

/// One dynamic relationship, seen from one of its ends: its kind from that end's point of view
/// (an owned entity sees `ownedBy`) and the entity at the other end.
public struct DynamicRelation: Hashable, Sendable, CustomStringConvertible {
    /// The kind, from the point of view of the entity the relation was listed for.
    public let kind: DynamicRelationKind
    /// The entity at the other end.
    public let other: EntityReference

    /// A relation of this kind to `other`.
    public init(_ kind: DynamicRelationKind, _ other: EntityReference) {
        self.kind = kind
        self.other = other
    }

    /// The kind and the other end, e.g. `owns Chat "1"`.
    public var description: String { "\(kind.rawValue) \(other)" }
}
