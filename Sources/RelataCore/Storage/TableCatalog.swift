/// The typed tables of a SQLite or PostgreSQL store, as its catalog table (`relata_table`) lists
/// them: one table per entity type, a column per stored property and kind of value in it (see
/// ``SplitPayload``), two columns (and an index) per to-one relation in its type's table, one
/// table per to-many relation.
///
/// Names of tables, columns and indexes are built from catalog numbers only (`e7`, `c8`, `r9`, `l12`),
/// never from type or relation names, so no user text reaches SQL outside bound parameters. The
/// catalog only grows and numbers are never reused, so a catalog read earlier stays true; a
/// backend reads it again when it meets a name it does not list.
package struct TableCatalog: Sendable, Equatable {
    /// What a catalog entry names.
    package enum Kind: Sendable, Hashable {
        /// An entity type's table (`e<n>`): `id`, `payload` (what no column holds, see
        /// ``SplitPayload``), and the type's property and to-one columns.
        case entity
        /// A stored property's column in its type's table (`c<n>`), holding one kind of value;
        /// the entry's `relation` is the property's name.
        case property(PropertyColumnKind)
        /// A to-one relation's columns in its type's table: `r<n>` (the target) and
        /// `r<n>_inverse` (the source's position in the target's list).
        case toOne
        /// A to-many relation's link table (`l<n>`): `source`, `target`, `position`, `inverse`.
        case toMany

        /// The kind as the catalog stores it: `entity`, `to-one`, `to-many`, `property <kind>`.
        package var rawValue: String {
            switch self {
            case .entity: "entity"
            case .property(let kind): "property \(kind.rawValue)"
            case .toOne: "to-one"
            case .toMany: "to-many"
            }
        }

        /// The kind stored as `rawValue`, if it is one.
        package init?(rawValue: String) {
            switch rawValue {
            case "entity": self = .entity
            case "to-one": self = .toOne
            case "to-many": self = .toMany
            default:
                guard rawValue.hasPrefix("property "), let kind = PropertyColumnKind(rawValue: String(rawValue.dropFirst("property ".count))) else {
                    return nil
                }
                self = .property(kind)
            }
        }
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

    /// A property's column: the property's name, the kind of value it holds, its catalog number.
    package struct PropertyColumn: Sendable, Equatable {
        package var name: String
        package var kind: PropertyColumnKind
        package var number: Int64

        package init(name: String, kind: PropertyColumnKind, number: Int64) {
            self.name = name
            self.kind = kind
            self.number = number
        }

        /// The column's name.
        package var column: String { "c\(number)" }
    }

    /// How many property columns one entity table gets at most: values of further properties
    /// stay in the row's payload (SQLite allows 2,000 columns, PostgreSQL 1,600).
    package static let maxPropertyColumns = 1_000

    private(set) package var entries: [Entry] = []
    private var entityTables: [String: Int64] = [:]
    private var columns: [String: [Column]] = [:]
    private var properties: [String: [PropertyColumn]] = [:]
    private var propertyNumbers: [PropertyKey: Int64] = [:]

    private struct PropertyKey: Hashable {
        var type: String
        var name: String
        var kind: PropertyColumnKind
    }
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
        case .property(let kind):
            properties[entry.type, default: []].append(PropertyColumn(name: entry.relation, kind: kind, number: entry.number))
            propertyNumbers[PropertyKey(type: entry.type, name: entry.relation, kind: kind)] = entry.number
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
            case .property: break
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

    /// The property columns of `type`, in catalog order.
    package func propertyColumns(of type: String) -> [PropertyColumn] {
        properties[type] ?? []
    }

    /// The catalog number of the column of `type` for property `name`'s values of `kind`, if
    /// there is one.
    package func propertyColumn(of type: String, name: String, kind: PropertyColumnKind) -> Int64? {
        propertyNumbers[PropertyKey(type: type, name: name, kind: kind)]
    }

    /// The columns of the view named after `type` (see ``viewName(of:)``), as `SELECT` items of
    /// its entity table: `id` when no property is named so, each property (its columns of every
    /// kind, the first not NULL), and each to-one relation's target, under their names quoted.
    /// Names that cannot be an identifier (holding NUL, or longer than `maxName` bytes) are left
    /// out. A property with columns of several kinds shows the first not NULL, each column cast
    /// with `asText` (PostgreSQL's `COALESCE` needs one type).
    package func viewColumns(of type: String, maxName: Int = .max, asText: String = "") -> [String] {
        var items: [String] = []
        var names: [String] = []
        var byName: [String: [String]] = [:]
        for column in propertyColumns(of: type) {
            if byName[column.name] == nil { names.append(column.name) }
            byName[column.name, default: []].append(column.column)
        }
        var used = Set<String>()
        func add(_ value: String, as name: String) {
            guard !name.utf8.contains(0), name.utf8.count <= maxName, used.insert(name).inserted else { return }
            items.append("\(value) AS \(Self.quoted(name))")
        }
        if byName["id"] == nil { add("id", as: "id") }
        for name in names {
            let columns = byName[name]!
            add(columns.count == 1 ? columns[0] : "COALESCE(\(columns.map { $0 + asText }.joined(separator: ", ")))", as: name)
        }
        for column in toOneColumns(of: type) { add(column.target, as: column.relation) }
        return items
    }

    /// The columns a query of `type`'s first rows (``ColumnFilteringReader``) reads: the column
    /// of each key in `order` (`DESC` appended for a descending one) and of each filter, and every
    /// column involved; `nil` when a key has no single numeric or text column or a filter no
    /// column.
    package func firstRows(of type: String, filters: [ColumnFilter], order: [ColumnOrder]) -> FirstRows? {
        let columns = propertyColumns(of: type)
        var plan = FirstRows()
        for key in order {
            if key.column == ColumnFilter.updatedAt {
                plan.keys.append(Self.updatedAtColumn + (key.descending ? " DESC" : ""))
                plan.involved.append(Self.updatedAtColumn)
                continue
            }
            let named = columns.filter { $0.name == key.column }
            guard named.count == 1, [.integer, .real, .text].contains(named[0].kind) else { return nil }
            plan.keys.append(named[0].column + (key.descending ? " DESC" : ""))
            plan.involved.append(named[0].column)
            if named[0].kind == .text { plan.textKeys.append(named[0].column) }
        }
        for filter in filters {
            guard filter.test != .isNull, let column = column(of: type, for: filter) else { return nil }
            plan.filters.append((filter, column))
            plan.involved.append(column)
        }
        return plan
    }

    /// The column of an entity table that holds when each entity was last saved (see
    /// ``EntityRecord/updatedAt``): seconds since 2001 as a double, NULL for a row without an
    /// entity or written before the column existed; indexed (`e<n>_updated`).
    package static let updatedAtColumn = "updated_at"

    /// The column of `type`'s entity table that `filter` tests: the property's column of the
    /// value's kind, or ``updatedAtColumn``; `nil` when the table has no such column (no row
    /// holds such a value in one).
    package func column(of type: String, for filter: ColumnFilter) -> String? {
        if filter.column == ColumnFilter.updatedAt { return Self.updatedAtColumn }
        return propertyColumn(of: type, name: filter.column, kind: filter.value.kind).map { "c\($0)" }
    }

    /// The SQL test of ``ColumnFilter/isNull(_:)`` on `type`'s property `name`: every column of
    /// it NULL; `nil` when it has no column (every row passes).
    package func nullTest(of type: String, name: String) -> String? {
        let columns = propertyColumns(of: type).filter { $0.name == name }.map { "\($0.column) IS NULL" }
        return columns.isEmpty ? nil : "(" + columns.joined(separator: " AND ") + ")"
    }

    /// See ``firstRows(of:filters:order:)``.
    package struct FirstRows {
        package var keys: [String] = []
        package var filters: [(filter: ColumnFilter, column: String)] = []
        package var involved: [String] = []
        /// The keys' text columns: SQL orders their values as Swift does only when they are
        /// ASCII (see ``ColumnOrder``).
        package var textKeys: [String] = []

        /// The conditions a row meets for SQL to order it as Swift does: every column involved
        /// holds a value, and each text key's is ASCII.
        package func ordered(_ dialect: ColumnFilter.Dialect) -> [String] {
            involved.map { "\($0) IS NOT NULL" } + textKeys.map { ColumnOrder.isASCII($0, dialect) }
        }

        /// Whether some rows may be left to Swift to test and order: something is involved (not
        /// the first rows by id).
        package var leavesRowsToSwift: Bool { !involved.isEmpty || !textKeys.isEmpty }

        /// The condition of the rows left to Swift to test and order (the negation of
        /// ``ordered(_:)``): `FALSE` when none is (``leavesRowsToSwift``).
        package func unordered(_ dialect: ColumnFilter.Dialect) -> String {
            let tests = involved.map { "\($0) IS NULL" } + textKeys.map { "NOT " + ColumnOrder.isASCII($0, dialect) }
            return tests.isEmpty ? "FALSE" : "(" + tests.joined(separator: " OR ") + ")"
        }
    }

    /// `name` as a quoted SQL identifier (its double quotes doubled).
    package static func quoted(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
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
        // Records come grouped by type: the type's entries are looked up once per group.
        var lastType: String?
        var typeColumns: [Column] = []
        for record in changes.upsertedEntities {
            if record.type != lastType {
                if entityTables[record.type] == nil { need(.entity, record.type, "") }
                lastType = record.type
                typeColumns = columns[record.type] ?? []
            }
            for link in record.toOne where !typeColumns.contains(where: { $0.relation == link.relation }) {
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
