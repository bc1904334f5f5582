import Foundation

/// One stored entity row: the entity, and the links of its to-one relations.
///
/// A to-one link (a one-way to-one relation, or the to-one side that stores a mutual pair) lives
/// in the row of its source, so saving an entity with its to-one links writes one row. A source
/// that has such links but no entity (a link saved to an id never saved) has a row with an empty
/// payload. Backends keep the links as fields they can index (SQLite and PostgreSQL: a column per
/// relation, with an index from target to sources) and hand them back on load.
public struct EntityRecord: Sendable, Hashable {
    /// The entity type's name (see ``EntitySchema``).
    public var type: String
    /// The id, as text (`EntityRecord.idText(_:)`).
    public var id: String
    /// The normalized entity in Relata's keyed binary form (rows written before version 4 of
    /// the SQLite format hold JSON); empty when the row only holds links.
    public var payload: Data
    /// The to-one links of this source, one per relation that has a target; a backend may hand
    /// them back in another order than it was given them.
    public var toOne: [ToOneLinkRecord]
    /// When the entity was last saved (its ``Metadata/updatedAt``); `nil` for a row without an
    /// entity, and for one written before storage kept the time. Backends keep it in a column of
    /// its own, indexed (SQLite and PostgreSQL: `updated_at`, seconds since 2001 as a double).
    public var updatedAt: Date?

    /// A record.
    public init(type: String, id: String, payload: Data, toOne: [ToOneLinkRecord] = [], updatedAt: Date? = nil) {
        self.type = type
        self.id = id
        self.payload = payload
        self.toOne = toOne
        self.updatedAt = updatedAt
    }

    /// Whether the row holds an entity (not only the to-one links of a source never saved).
    public var hasEntity: Bool { !payload.isEmpty }
}
