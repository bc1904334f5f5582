import Foundation
import GRDB
import RelataCore

/// Writes the rows of a ``StoreChanges`` into the typed tables (entities with their to-one
/// columns, link tables, dynamic links), making the tables a new type or relation needs. Each
/// statement is prepared once per table and run once per row, values bound straight through
/// SQLite's C API (``BoundStatement``).
struct SQLiteRowWriter {
    let db: Database
    let tables: TableSession
    /// The backend whose index declarations the write makes the file match (see
    /// ``SQLiteIndexes``); `nil` to leave indexes alone (an upgrade writing rows).
    var backend: SQLiteBackend? = nil

    func write(_ changes: StoreChanges) throws {
        // Every to-one column of a type is written with each of its rows (a link removed is set
        // to NULL), so a write knows every column, those other connections added included: the
        // catalog is read again unless known current (the write lock keeps it as it is until the
        // commit).
        if !tables.isCurrent { try tables.refresh() }
        try tables.prepare(for: changes)
        // How many entities each type's table gains or loses (see `keepCounts`).
        var counts: [String: Int64] = [:]
        // Deletions: one statement per table, whatever the number of rows (a cascade erases
        // thousands), the keys in one JSON array; each deleted row says whether it held an entity.
        for (type, ids) in Self.grouped(changes.deletedEntities, by: { ($0.type, $0.id) }) {
            guard let table = try tables.entityTable(of: type) else { continue }
            let erased: Int64
            if ids.count == 1 {
                erased = try BoundStatement(db, sql: "DELETE FROM \(table) WHERE id = ? RETURNING length(payload) > 0").sum(ids[0])
            } else {
                erased = try BoundStatement(db, sql: "DELETE FROM \(table) WHERE id IN (SELECT value FROM json_each(?)) RETURNING length(payload) > 0")
                    .sum(JSONArrayText.encode(ids))
            }
            counts[type, default: 0] -= erased
        }
        let rows = changes.upsertedEntities.isEmpty ? [] : try upsert(changes.upsertedEntities, keeping: changes.unchangedToOne, counting: &counts)
        try keepCounts(counts)
        if let backend {
            let keeper = SQLiteIndexes(db: db, tables: tables)
            var synced = backend.indexes.withLock { $0 }
            try keeper.sync(changes, synced: &synced)
            try keeper.keepFullText(changes, rows: rows, synced: synced)
            backend.indexes.withLock { [synced] in $0 = synced }
        }
        let linksByTable = Self.grouped(changes.deletedLinks) { ($0.type + "\u{0}" + $0.relation, $0) }
        for (_, links) in linksByTable {
            guard let table = try tables.linkTable(of: links[0].type, relation: links[0].relation) else { continue }
            if links.count == 1 {
                try BoundStatement(db, sql: "DELETE FROM \(table) WHERE source = ? AND target = ?").run(links[0].source, links[0].target)
            } else {
                try BoundStatement(
                    db,
                    sql: "DELETE FROM \(table) WHERE (source, target) IN (SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(?))"
                ).run(JSONArrayText.encode(links.map { [$0.source, $0.target] }))
            }
        }
        if !changes.deletedDynamicLinks.isEmpty {
            let statement = try BoundStatement(
                db, sql: "DELETE FROM relata_dynamic_link WHERE kind = ? AND source_type = ? AND source = ? AND target_type = ? AND target = ?"
            )
            for r in changes.deletedDynamicLinks { try statement.run(r.kind, r.sourceType, r.source, r.targetType, r.target) }
        }
        if !changes.insertedDynamicLinks.isEmpty {
            let statement = try BoundStatement(
                db, sql: "INSERT OR REPLACE INTO relata_dynamic_link (kind, source_type, source, target_type, target) VALUES (?, ?, ?, ?, ?)"
            )
            for r in changes.insertedDynamicLinks { try statement.run(r.kind, r.sourceType, r.source, r.targetType, r.target) }
        }
        if !changes.upsertedLinks.isEmpty {
            var statements: [String: BoundStatement] = [:]
            for r in changes.upsertedLinks {
                let name = r.type + "\u{0}" + r.relation
                let statement: BoundStatement
                if let known = statements[name] {
                    statement = known
                } else {
                    // `prepare(for:)` made every table the rows need.
                    guard let table = try tables.linkTable(of: r.type, relation: r.relation) else { throw TableSession.missing(r.type, r.relation) }
                    statement = try BoundStatement(db, sql: "INSERT OR REPLACE INTO \(table) (source, target, position, inverse) VALUES (?, ?, ?, ?)")
                    statements[name] = statement
                }
                try statement.bind(1, r.source)
                try statement.bind(2, r.target)
                try statement.bind(3, r.position)
                try statement.bind(4, r.inversePosition)
                try statement.step()
            }
        }
    }

    /// `elements` grouped by the key `split` gives each, in the order each key first comes, with
    /// the values in the order they come.
    private static func grouped<Element, Value>(_ elements: some Sequence<Element>, by split: (Element) -> (String, Value)) -> [(String, [Value])] {
        var groups: [(String, [Value])] = []
        var positions: [String: Int] = [:]
        for element in elements {
            let (key, value) = split(element)
            if let position = positions[key] {
                groups[position].1.append(value)
            } else {
                positions[key] = groups.count
                groups.append((key, [value]))
            }
        }
        return groups
    }

    /// Stores entity rows: each row whole (the payload's rest, every property column of its type
    /// and every to-one column; a property or relation the row has no value for is set to NULL).
    /// An upsert (`INSERT … ON CONFLICT (id) DO UPDATE`); the to-one columns of the relations
    /// `unchanged` names for a row are left out of its update (SQLite rewrites the index of every
    /// column an update sets, even to the value it holds: two pages more per unchanged link).
    /// Adds to `counts` the entities it adds to each type. Returns each record with its row as
    /// split.
    private func upsert(
        _ records: [EntityRecord], keeping unchanged: [EntityKey: Set<String>], counting counts: inout [String: Int64]
    ) throws -> [(EntityRecord, TableSession.SplitRow)] {
        let rows = try tables.split(records)
        try countEntities(replacedBy: records, rows: rows, into: &counts)
        // By type, then by the relations kept (few combinations: most often none, or all).
        var statements: [String: (BoundStatement, [TableCatalog.Column], [Int64: Int32])] = [:]
        for (record, row) in zip(records, rows) {
            let kept = unchanged.isEmpty ? [] : unchanged[EntityKey(type: record.type, id: record.id)] ?? []
            let key = kept.isEmpty ? record.type : record.type + "\u{0}" + kept.sorted().joined(separator: "\u{0}")
            let statement: BoundStatement, columns: [TableCatalog.Column], properties: [Int64: Int32]
            if let known = statements[key] {
                (statement, columns, properties) = known
            } else {
                guard let table = try tables.entityTable(of: record.type) else { throw TableSession.missing(record.type, nil) }
                columns = tables.toOneColumns(of: record.type)
                let propertyColumns = tables.catalog.propertyColumns(of: record.type)
                let names = [TableCatalog.updatedAtColumn] + columns.flatMap { [$0.target, $0.inverse] } + propertyColumns.map(\.column)
                let updated = [TableCatalog.updatedAtColumn] + columns.filter { !kept.contains($0.relation) }.flatMap { [$0.target, $0.inverse] }
                    + propertyColumns.map(\.column)
                properties = Dictionary(uniqueKeysWithValues: propertyColumns.enumerated().map { ($1.number, Int32(4 + 2 * columns.count + $0)) })
                statement = try BoundStatement(
                    db,
                    sql: """
                        INSERT INTO \(table) (\((["id", "payload"] + names).joined(separator: ", ")))
                        VALUES (\(Array(repeating: "?", count: 2 + names.count).joined(separator: ", ")))
                        ON CONFLICT (id) DO UPDATE SET \((["payload"] + updated).map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
                        """
                )
                statements[key] = (statement, columns, properties)
            }
            try statement.bind(1, record.id)
            try statement.bind(2, row.rest)
            try statement.bind(3, record.updatedAt.map { PropertyValue.double($0.timeIntervalSinceReferenceDate) })
            var index: Int32 = 4
            for column in columns {
                if let link = record.toOne.first(where: { $0.relation == column.relation }) {
                    try statement.bind(index, link.target)
                    try statement.bind(index + 1, link.inversePosition)
                } else {
                    try statement.bindNull(index)
                    try statement.bindNull(index + 1)
                }
                index += 2
            }
            // The columns left unbound are NULL (`step` clears the bindings after each row).
            for (number, value) in row.values {
                guard let parameter = properties[number] else { throw TableSession.missing(record.type, "column c\(number)") }
                try statement.bind(parameter, value)
            }
            try statement.step()
        }
        return Array(zip(records, rows))
    }

    /// Adds to `counts` how many entities the upsert of `records` adds to each table: the ids
    /// whose last row holds an entity (a non-empty payload), less those that held one before
    /// (one statement per table, the ids in one JSON array).
    private func countEntities(replacedBy records: [EntityRecord], rows: [TableSession.SplitRow], into counts: inout [String: Int64]) throws {
        var holds: [String: [String: Bool]] = [:]
        for (record, row) in zip(records, rows) { holds[record.type, default: [:]][record.id] = !row.rest.isEmpty }
        for (type, ids) in holds {
            guard let table = try tables.entityTable(of: type) else { continue }
            let after = Int64(ids.values.count { $0 })
            // One id by the primary key (a point write), more as one JSON array.
            let (keys, argument) = ids.count == 1
                ? ("id = ?", ids.keys.first!) : ("id IN (SELECT value FROM json_each(?))", JSONArrayText.encode(Array(ids.keys)))
            let statement = try BoundStatement(db, sql: "SELECT count(*) FROM \(table) WHERE \(keys) AND length(payload) > 0")
            try statement.bind(1, argument)
            let before = try statement.integers(0)[0] ?? 0
            counts[type, default: 0] += after - before
        }
    }

    /// Applies the changes of `counts` to `relata_count`: one statement per table whose count
    /// changed. (Formats before 11 kept the counts with triggers on the entity tables, a trigger
    /// program per row; the write knows the change for the rows it writes.)
    private func keepCounts(_ counts: [String: Int64]) throws {
        for (type, change) in counts where change != 0 {
            guard let number = tables.catalog.entityNumber(of: type) else { continue }
            let statement = try BoundStatement(db, sql: "UPDATE relata_count SET count = count + ? WHERE number = ?")
            try statement.bind(1, change)
            try statement.bind(2, number)
            try statement.step()
        }
    }
}
