/// The typed tables of a SQLite or PostgreSQL store, as its catalog table (`relata_table`) lists
/// them: one table per entity type, two columns (and an index) per to-one relation in its
/// type's table, one table per to-many relation.
///
/// Names of tables, columns and indexes are built from catalog numbers only (`e7`, `r9`, `l12`),
/// never from type or relation names, so no user text reaches SQL outside bound parameters. The
/// catalog only grows and numbers are never reused, so a catalog read earlier stays true; a
/// backend reads it again when it meets a name it does not list.
package struct TableCatalog: Sendable, Equatable {
    /// What a catalog entry names.
    package enum Kind: String, Sendable {
        /// An entity type's table (`e<n>`): `id`, `payload`, and the type's to-one columns.
        case entity
        /// A to-one relation's columns in its type's table: `r<n>` (the target) and
        /// `r<n>_inverse` (the source's position in the target's list).
        case toOne = "to-one"
        /// A to-many relation's link table (`l<n>`): `source`, `target`, `position`, `inverse`.
        case toMany = "to-many"
    }

    /// One row of the catalog.
    package struct Entry: Sendable, Hashable {
        package var number: Int64
        package var kind: Kind
        package var type: String
        /// The relation's name (empty for an entity table).
        package var relation: String

        package init(number: Int64, kind: Kind, type: String, relation: String) {
            self.number = number
            self.kind = kind
            self.type = type
            self.relation = relation
        }
    }

    /// A to-one relation's columns: its relation name and catalog number.
    package struct Column: Sendable, Equatable {
        package var relation: String
        package var number: Int64

        package init(relation: String, number: Int64) {
            self.relation = relation
            self.number = number
        }

        /// The target column's name.
        package var target: String { "r\(number)" }
        /// The inverse position column's name.
        package var inverse: String { "r\(number)_inverse" }
    }

    private(set) package var entries: [Entry] = []
    private var entityTables: [String: Int64] = [:]
    private var columns: [String: [Column]] = [:]
    private var linkTables: [RelationName: Int64] = [:]

    private struct RelationName: Hashable {
        var type: String
        var relation: String
    }

    /// An empty catalog.
    package init() {}

    /// The catalog of `entries` (in any order).
    package init(_ entries: [Entry]) {
        for entry in entries.sorted(by: { $0.number < $1.number }) { add(entry) }
    }

    /// The number the next entry gets.
    package var nextNumber: Int64 { (entries.last?.number ?? 0) + 1 }

    /// Whether `number`, read from storage after `previous` (the entries are read in number
    /// order), is one a catalog can hold: above `previous` (and 0) and below `Int64.max`, so that
    /// ``nextNumber`` never overflows.
    package static func accepts(_ number: Int64, after previous: Int64?) -> Bool {
        number > (previous ?? 0) && number < .max
    }

    /// Adds `entry` (its number must be above every number listed).
    package mutating func add(_ entry: Entry) {
        entries.append(entry)
        switch entry.kind {
        case .entity: entityTables[entry.type] = entry.number
        case .toOne: columns[entry.type, default: []].append(Column(relation: entry.relation, number: entry.number))
        case .toMany: linkTables[RelationName(type: entry.type, relation: entry.relation)] = entry.number
        }
    }

    /// Every entity type with a table, and its table's name.
    package var entityTypes: [(type: String, table: String)] {
        entries.filter { $0.kind == .entity }.map { ($0.type, Self.entityTable($0.number)) }
    }

    /// Every to-many relation with a table, and its table's name.
    package var linkRelations: [(type: String, relation: String, table: String)] {
        entries.filter { $0.kind == .toMany }.map { ($0.type, $0.relation, Self.linkTable($0.number)) }
    }

    /// The types and relations the catalog has tables or columns for, as an inventory without
    /// dynamic relationships (see ``StorageReader/inventory()``).
    package var inventory: StorageInventory {
        var inventory = StorageInventory()
        for entry in entries {
            switch entry.kind {
            case .entity: inventory.entityTypes.insert(entry.type)
            case .toOne, .toMany:
                inventory.relations.insert(.init(type: entry.type, relation: entry.relation, isToMany: entry.kind == .toMany))
            }
        }
        return inventory
    }

    /// The table of `type`'s entities, if it has one.
    package func entityTable(of type: String) -> String? {
        entityTables[type].map(Self.entityTable)
    }

    /// The catalog number of `type`'s entity table, if it has one.
    package func entityNumber(of type: String) -> Int64? {
        entityTables[type]
    }

    /// The to-one columns of `type`, in catalog order.
    package func toOneColumns(of type: String) -> [Column] {
        columns[type] ?? []
    }

    /// The link table of `type`'s to-many `relation`, if it has one.
    package func linkTable(of type: String, relation: String) -> String? {
        linkTables[RelationName(type: type, relation: relation)].map(Self.linkTable)
    }

    /// Where `type`'s `relation` is stored, if storage holds it: its link table (a to-many
    /// relation) or a to-one column of `type`'s entity table.
    package func relationTable(of type: String, relation: String) -> RelationTable? {
        if let table = linkTable(of: type, relation: relation) { return .links(table) }
        guard let column = toOneColumns(of: type).first(where: { $0.relation == relation }), let table = entityTable(of: type) else { return nil }
        return .column(column, in: table)
    }

    /// Where a relation's links are stored (see ``relationTable(of:relation:)``).
    package enum RelationTable: Equatable {
        /// A link table of its own, one row per link.
        case links(String)
        /// A to-one column of the source's entity table.
        case column(Column, in: String)
    }

    /// The entries `changes` needs that the catalog lacks (numbers not assigned yet: `0`), in the
    /// order they must be made: an entity table before its columns.
    package func missing(for changes: StoreChanges) -> [Entry] {
        var needed: [Entry] = []
        var seen = Set<Entry>()
        func need(_ kind: Kind, _ type: String, _ relation: String) {
            let entry = Entry(number: 0, kind: kind, type: type, relation: relation)
            if seen.insert(entry).inserted { needed.append(entry) }
        }
        var lastType: String?
        for record in changes.upsertedEntities {
            if record.type != lastType, entityTables[record.type] == nil { need(.entity, record.type, "") }
            lastType = record.type
            for link in record.toOne where !(columns[record.type]?.contains { $0.relation == link.relation } ?? false) {
                need(.toOne, record.type, link.relation)
            }
        }
        for record in changes.upsertedLinks where linkTables[RelationName(type: record.type, relation: record.relation)] == nil {
            need(.toMany, record.type, record.relation)
        }
        return needed
    }

    /// The name of entity table number `n`.
    package static func entityTable(_ number: Int64) -> String { "e\(number)" }
    /// The name of link table number `n`.
    package static func linkTable(_ number: Int64) -> String { "l\(number)" }
}
