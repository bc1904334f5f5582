import Foundation

/// The typed tables one transaction reads and writes (see ``TableCatalog``): the catalog as the
/// backend last knew it, read again from storage when a name is missing from it (another
/// connection may have made the table since), and grown by a write that stores a new type or
/// relation. A backend gives it the two things that touch storage: reading the catalog and
/// making one entry's table or columns.
package final class TableSession {
    private(set) package var catalog: TableCatalog
    private let read: () throws -> TableCatalog
    private let make: (TableCatalog.Entry, TableCatalog) throws -> Void
    /// Whether ``catalog`` was read from storage in this transaction.
    private(set) package var isFresh = false
    /// Whether this transaction made tables (the catalog then becomes the backend's only once
    /// the transaction commits).
    private(set) package var grew = false

    /// A session starting from the catalog the backend knows.
    ///
    /// - Parameters:
    ///   - read: Reads the catalog from storage, in the transaction.
    ///   - make: Makes the table or columns of an entry (its number assigned) in the catalog
    ///     given, and lists it in storage.
    ///   - known: The catalog the backend knows, and the commit it is known current as of.
    package init(
        known: KnownCatalog, read: @escaping () throws -> TableCatalog, make: @escaping (TableCatalog.Entry, TableCatalog) throws -> Void
    ) {
        catalog = known.catalog
        asOf = known.asOf
        self.read = read
        self.make = make
    }

    /// The commit the catalog the session started from is known current as of, if any.
    private let asOf: Int64?
    /// The last commit of the log as the transaction read it (its bounds), if it did: the
    /// backend tells it.
    package var seenSequence: Int64?
    /// The full-text tables this transaction found (a search asks once per trigram it reads):
    /// none is dropped while it lasts — its snapshot keeps them (SQLite), or the lock its reads
    /// hold makes a `DROP` wait (PostgreSQL).
    package var foundFullTextTables: Set<String> = []

    /// The newest commit this transaction knows of: the one it made, else the newest it saw
    /// (in a write transaction, which holds the lock, storage's newest); `nil` before it read
    /// the log's bounds.
    package var newestKnownCommit: Int64? { madeSequence ?? seenSequence }
    /// The sequence of the commit the transaction made, once its log record is written: the
    /// backend tells it.
    package var madeSequence: Int64?

    /// Whether the catalog holds every table storage holds in this transaction: it was known
    /// current as of the very commit the transaction sees (see ``KnownCatalog``). A write then
    /// need not read it again, and a name missing from it is missing from storage.
    package var isCurrent: Bool { asOf != nil && asOf == seenSequence }

    /// The catalog as the transaction leaves it, for the backend to keep once it committed
    /// (``KnownCatalog/keep(_:)``): after a commit it made, current as of that commit; after a
    /// read of the catalog here, as of what the transaction saw; else not known current.
    package var known: KnownCatalog {
        if let madeSequence, isFresh || isCurrent { return KnownCatalog(catalog, asOf: madeSequence) }
        if isFresh, let seenSequence, madeSequence == nil { return KnownCatalog(catalog, asOf: seenSequence) }
        return KnownCatalog(catalog)
    }

    /// Reads the catalog again for a name missing from it, unless it is known current.
    private func refreshForMissingName() throws {
        if !isCurrent { try refresh() }
    }

    /// Reads the catalog from storage, once per transaction.
    package func refresh() throws {
        guard !isFresh else { return }
        catalog = try read()
        isFresh = true
    }

    /// The table of `type`'s entities, if storage has one.
    package func entityTable(of type: String) throws -> String? {
        if let table = catalog.entityTable(of: type) { return table }
        try refreshForMissingName()
        return catalog.entityTable(of: type)
    }

    /// The to-one columns of `type` (after ``entityTable(of:)`` answered).
    package func toOneColumns(of type: String) -> [TableCatalog.Column] {
        catalog.toOneColumns(of: type)
    }

    /// The link table of `type`'s to-many `relation`, if storage has one.
    package func linkTable(of type: String, relation: String) throws -> String? {
        if let table = catalog.linkTable(of: type, relation: relation) { return table }
        try refreshForMissingName()
        return catalog.linkTable(of: type, relation: relation)
    }

    /// The to-one column of `type`'s `relation`, if storage has one.
    package func toOneColumn(of type: String, relation: String) throws -> TableCatalog.Column? {
        if let column = catalog.toOneColumns(of: type).first(where: { $0.relation == relation }) { return column }
        try refreshForMissingName()
        return catalog.toOneColumns(of: type).first { $0.relation == relation }
    }

    /// Where `type`'s `relation` is stored, if storage holds it: the catalog is read again only
    /// when it knows neither a link table nor a to-one column for it.
    package func relationTable(of type: String, relation: String) throws -> TableCatalog.RelationTable? {
        if let table = catalog.relationTable(of: type, relation: relation) { return table }
        try refreshForMissingName()
        return catalog.relationTable(of: type, relation: relation)
    }

    /// Makes the tables and columns `changes` writes to and storage lacks.
    package func prepare(for changes: StoreChanges) throws {
        guard !catalog.missing(for: changes).isEmpty else { return }
        try refresh()
        for var entry in catalog.missing(for: changes) {
            entry.number = catalog.nextNumber
            try make(entry, catalog)
            catalog.add(entry)
            grew = true
        }
    }

    /// The payloads of `records` (entity rows of tables ``prepare(for:)`` made) split for their
    /// tables' property columns, with each value's column number: columns a value needs and
    /// storage lacks are made first, up to ``TableCatalog/maxPropertyColumns`` per table (values
    /// beyond stay in the payload).
    package func split(_ records: [EntityRecord]) throws -> [SplitRow] {
        var splits = try records.map { record in
            record.columns.isEmpty ? try SplitPayload(splitting: record.rest) : SplitPayload(rest: record.rest, properties: record.columns)
        }
        func lacking(_ index: Int) -> Bool {
            splits[index].properties.contains { catalog.propertyColumn(of: records[index].type, name: $0.name, kind: $0.value.kind) == nil }
        }
        let incomplete = records.indices.filter(lacking)
        if !incomplete.isEmpty {
            try refresh()
            var counts: [String: Int] = [:]
            for index in incomplete {
                let type = records[index].type
                for property in splits[index].properties
                where catalog.propertyColumn(of: type, name: property.name, kind: property.value.kind) == nil {
                    let count = counts[type] ?? catalog.propertyColumns(of: type).count
                    guard count < TableCatalog.maxPropertyColumns else { break }
                    let entry = TableCatalog.Entry(number: catalog.nextNumber, kind: .property(property.value.kind), type: type, relation: property.name)
                    try make(entry, catalog)
                    catalog.add(entry)
                    grew = true
                    counts[type] = count + 1
                }
            }
            for index in incomplete where lacking(index) {
                let type = records[index].type
                splits[index] = try SplitPayload(splitting: records[index].payload) { name, kind in
                    self.catalog.propertyColumn(of: type, name: name, kind: kind) != nil
                }
            }
        }
        return try zip(records, splits).map { record, split in
            SplitRow(
                rest: split.rest,
                values: try split.properties.map { property in
                    guard let number = catalog.propertyColumn(of: record.type, name: property.name, kind: property.value.kind) else {
                        throw Self.missing(record.type, property.name)
                    }
                    return (number, property.value)
                }
            )
        }
    }

    /// An entity row as a table of typed columns stores it (see ``split(_:)``).
    package struct SplitRow {
        /// What the `payload` column holds: the entries no column holds (empty for a row that
        /// only holds links).
        package var rest: Data
        /// The values of property columns, by catalog number.
        package var values: [(number: Int64, value: PropertyValue)]
    }

    /// The error of a write that finds no table for rows it just made one for.
    package static func missing(_ type: String, _ relation: String?) -> RelataError {
        RelataError(
            code: .storageFailed, entityType: type, relation: relation,
            message: "no table holds \(relation.map { "\(type).\($0)" } ?? type) after it was made"
        )
    }
}
