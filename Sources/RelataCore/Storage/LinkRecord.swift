/// One stored link: `source` (of type `type`) links to `target` through `relation`.
///
/// A mutual relation is stored once per linked pair, on one side: the to-one side of a
/// one-to-many relation (keyed by the "many" entity, so the rows a write adds sit together),
/// otherwise the side whose type name, then relation name, comes first. The row carries the
/// position of `target` among the targets of
/// `source` and, in `inversePosition`, the position of `source` among the targets of `target`
/// when the inverse is to-many. One-way relations and relations that are their own inverse have
/// one row per link.
///
/// Link rows hold to-many links only: a to-one link is kept in its source's ``EntityRecord``
/// (``EntityRecord/toOne``). Rows of to-one links written by earlier versions are read, then
/// moved into the entity rows when the store opens.
public struct LinkRecord: Sendable, Hashable {
    /// The source entity type's name.
    public var type: String
    /// The relation's property name.
    public var relation: String
    /// The source id, as text.
    public var source: String
    /// The target id, as text.
    public var target: String
    /// The position key of the target among the source's targets (to-many relations only).
    public var position: String?
    /// The position key of the source among the target's targets, for a mutual relation whose
    /// inverse is to-many.
    public var inversePosition: String?

    /// A record.
    public init(type: String, relation: String, source: String, target: String, position: String?, inversePosition: String? = nil) {
        self.type = type
        self.relation = relation
        self.source = source
        self.target = target
        self.position = position
        self.inversePosition = inversePosition
    }

    /// The identity of the link (everything but its position).
    public var key: LinkKey { LinkKey(type: type, relation: relation, source: source, target: target) }
}

extension LinkRecord {
    /// The order of a source's links in ``StorageReader/fetchLinks(of:)``: a link without a
    /// position first, then by position, ties by target — positions and targets compared by
    /// their UTF-8 bytes, as SQLite and PostgreSQL (`COLLATE "C"`) compare them.
    public static func positionOrder(_ a: LinkRecord, _ b: LinkRecord) -> Bool {
        precedes(a.position, a.target, b.position, b.target)
    }

    /// The order of a target's sources in ``StorageReader/fetchSources(of:)``: a link without an
    /// inverse position first, then by inverse position, ties by source — compared by their UTF-8
    /// bytes.
    public static func inverseOrder(_ a: LinkRecord, _ b: LinkRecord) -> Bool {
        precedes(a.inversePosition, a.source, b.inversePosition, b.source)
    }

    /// Whether (`key`, `id`) comes before (`otherKey`, `otherID`): no key first, then by key, ties
    /// by id, bytewise.
    private static func precedes(_ key: String?, _ id: String, _ otherKey: String?, _ otherID: String) -> Bool {
        switch (key, otherKey) {
        case (nil, nil): return id.utf8.lexicographicallyPrecedes(otherID.utf8)
        case (nil, _): return true
        case (_, nil): return false
        case let (x?, y?): return x == y ? id.utf8.lexicographicallyPrecedes(otherID.utf8) : x.utf8.lexicographicallyPrecedes(y.utf8)
        }
    }
}
