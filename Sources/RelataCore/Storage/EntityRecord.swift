import Foundation

/// One stored entity row: the entity, and the links of its to-one relations.
///
/// A to-one link (a one-way to-one relation, or the to-one side that stores a mutual pair) lives
/// in the row of its source, so saving an entity with its to-one links writes one row. A source
/// that has such links but no entity (a link saved to an id never saved) has a row with an empty
/// payload. Backends keep the links as fields they can index (SQLite and PostgreSQL: a column per
/// relation, with an index from target to sources) and hand them back on load.
public struct EntityRecord: Sendable {
    /// The entity type's name (see ``EntitySchema``).
    public var type: String
    /// The id, as text (`EntityRecord.idText(_:)`).
    public var id: String
    /// The normalized entity in Relata's keyed binary form (rows written before version 4 of
    /// the SQLite format hold JSON); empty when the row only holds links.
    ///
    /// A row read from a table of typed columns keeps its columns apart (see ``EntityRecord``'s
    /// `columns`) and decodes straight from them; reading this puts them back into one payload,
    /// which decodes to the same entity (its entries may come in another order).
    public var payload: Data {
        get {
            guard !columns.isEmpty else { return rest }
            // The columns were checked when the row was read (`init(type:id:rest:columns:…)`).
            return (try? SplitPayload.assemble(rest: rest, properties: columns)) ?? rest
        }
        set {
            rest = newValue
            columns = []
        }
    }
    /// The row's `payload` column: the whole payload when ``columns`` is empty, otherwise the
    /// entries no column holds (a keyed payload, at least its header).
    package private(set) var rest: Data
    /// The values of the row's property columns, by property name (empty for a whole payload).
    package private(set) var columns: [PropertyEntry]
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
        self.rest = payload
        self.columns = []
        self.toOne = toOne
        self.updatedAt = updatedAt
    }

    /// A record read from a row of typed columns: `rest`, its `payload` column, and `columns`,
    /// the values of its property columns.
    ///
    /// - Throws: `DecodingError` when they cannot make one payload (`rest` is not a keyed payload,
    ///   a JSON column is damaged): ``payload`` is then never a guess.
    package init(type: String, id: String, rest: Data, columns: [PropertyEntry], toOne: [ToOneLinkRecord], updatedAt: Date?) throws {
        if !columns.isEmpty, !rest.isEmpty { try SplitPayload.check(rest: rest, properties: columns) }
        self.type = type
        self.id = id
        // A row without an entity has no properties to read.
        self.rest = rest
        self.columns = rest.isEmpty ? [] : columns
        self.toOne = toOne
        self.updatedAt = updatedAt
    }

    /// The record of an entity written as `split` (``PayloadCoding/splitEntity(_:)``): its
    /// columns made by the generated code, so there is nothing to check.
    package init(type: String, id: String, split: SplitPayload, toOne: [ToOneLinkRecord], updatedAt: Date?) {
        self.type = type
        self.id = id
        self.rest = split.rest
        self.columns = split.properties
        self.toOne = toOne
        self.updatedAt = updatedAt
    }

    /// Whether the row holds an entity (not only the to-one links of a source never saved).
    public var hasEntity: Bool { !rest.isEmpty }

    /// About how many bytes the payload and property columns hold (a cache's estimate).
    package var storedBytes: Int {
        columns.reduce(rest.count) { total, column in
            let value: Int
            switch column.value {
            case .bool: value = 1
            case .int, .uint, .double: value = 8
            case .text(let text), .json(let text): value = text.utf8.count
            case .data(let data): value = data.count
            }
            return total + 16 + column.name.utf8.count + value
        }
    }

    /// Whether `other` holds the same row as it was read (the same payload column and property
    /// columns) — cheaper than comparing ``payload``s, and what tells that an entity decoded from
    /// one is the entity of the other.
    package func sameStoredValues(as other: EntityRecord) -> Bool {
        rest == other.rest && columns == other.columns
    }
}

extension EntityRecord: Hashable {
    /// Records are equal when they hold the same entity row: type, id, the same payload (however
    /// it is kept), to-one links and time.
    public static func == (lhs: EntityRecord, rhs: EntityRecord) -> Bool {
        lhs.type == rhs.type && lhs.id == rhs.id && lhs.toOne == rhs.toOne && lhs.updatedAt == rhs.updatedAt
            && (lhs.sameStoredValues(as: rhs) || lhs.payload == rhs.payload)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(id)
        hasher.combine(toOne)
        hasher.combine(updatedAt)
    }
}
