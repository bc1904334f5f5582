import Foundation
import NIOCore
import PostgresNIO
import RelataCore

/// Runs one statement on a transaction's connection and returns its rows.
typealias PostgresExecute = (PostgresQuery) throws -> [PostgresRow]

// The typed tables of version 2 (see `TableCatalog`): made on demand by the write that first
// stores a type or relation, inside its transaction, and listed in `relata_table`. Text columns
// compare bytewise (`COLLATE "C"`), so indexes give ids and positions in SQLite's order.

extension PostgresSchema {
    /// A table of this schema, quoted.
    func qualified(_ table: String) -> String {
        "\"\(schema)\".\(table)"
    }

    /// The catalog as the schema lists it.
    func catalog(_ execute: PostgresExecute) throws -> TableCatalog {
        var entries: [TableCatalog.Entry] = []
        for row in try execute(PostgresQuery(unsafeSQL: "SELECT number, kind, type, relation FROM \(catalog) ORDER BY number")) {
            let (number, kind, type, relation) = try row.decode((Int64, String, String, String).self)
            guard let kind = TableCatalog.Kind(rawValue: kind), TableCatalog.accepts(number, after: entries.last?.number) else {
                throw RelataError(code: .corruptedStore, entityType: "Store", message: "schema \(schema) is damaged: relata_table row \(number) is not a table Relata makes")
            }
            entries.append(TableCatalog.Entry(number: number, kind: kind, type: type, relation: relation))
        }
        return TableCatalog(entries)
    }

    /// The tables a transaction reads and writes through `execute`, starting from what the
    /// backend knows.
    func session(known: KnownCatalog, _ execute: @escaping PostgresExecute) -> TableSession {
        TableSession(known: known, read: { try self.catalog(execute) }, make: { entry, catalog in try create(entry, in: catalog, execute) })
    }

    /// Version 4: the column of when each entity was last saved, and its index, in an entity
    /// table of an older schema (its rows keep NULL: adding a column rewrites nothing).
    func addUpdatedAt(to name: String, _ execute: PostgresExecute) throws {
        let table = qualified(name), column = TableCatalog.updatedAtColumn
        _ = try execute(PostgresQuery(unsafeSQL: "ALTER TABLE \(table) ADD COLUMN IF NOT EXISTS \(column) double precision"))
        _ = try execute(PostgresQuery(unsafeSQL: "CREATE INDEX IF NOT EXISTS \(name)_updated ON \(table) (\(column) NULLS FIRST, id)"))
    }

    /// Makes the table or columns `entry` names (its number assigned) and lists it in the catalog.
    func create(_ entry: TableCatalog.Entry, in catalog: TableCatalog, _ execute: PostgresExecute) throws {
        let n = entry.number
        var statements: [String]
        switch entry.kind {
        case .entity:
            let table = qualified(TableCatalog.entityTable(n))
            statements = [
                "CREATE TABLE \(table) (id text COLLATE \"C\" PRIMARY KEY, payload bytea NOT NULL, \(TableCatalog.updatedAtColumn) double precision)",
                "CREATE INDEX e\(n)_updated ON \(table) (\(TableCatalog.updatedAtColumn) NULLS FIRST, id)",
                "INSERT INTO \(count) (number, count) VALUES (\(n), 0)",
            ]
            for (event, tables) in [("INSERT", "NEW TABLE AS new_rows"), ("UPDATE", "OLD TABLE AS old_rows NEW TABLE AS new_rows"), ("DELETE", "OLD TABLE AS old_rows")] {
                statements.append(
                    "CREATE TRIGGER e\(n)_\(event.lowercased()) AFTER \(event) ON \(table) REFERENCING \(tables) FOR EACH STATEMENT EXECUTE FUNCTION \(countFunction)('\(n)')"
                )
            }
        case .toOne:
            guard let name = catalog.entityTable(of: entry.type) else {
                throw RelataError(code: .storageFailed, entityType: entry.type, relation: entry.relation, message: "no table for \(entry.type) to hold its relation \(entry.relation)")
            }
            let column = TableCatalog.Column(relation: entry.relation, number: n)
            let table = qualified(name)
            statements = [
                "ALTER TABLE \(table) ADD COLUMN \(column.target) text COLLATE \"C\", ADD COLUMN \(column.inverse) text COLLATE \"C\"",
                "CREATE INDEX \(name)_\(column.target) ON \(table) (\(column.target), \(column.inverse) NULLS FIRST, id) WHERE \(column.target) IS NOT NULL",
            ]
        case .property(let kind):
            guard let name = catalog.entityTable(of: entry.type) else {
                throw RelataError(code: .storageFailed, entityType: entry.type, message: "no table for \(entry.type) to hold its property \(entry.relation)")
            }
            statements = ["ALTER TABLE \(qualified(name)) ADD COLUMN c\(n) \(Self.columnType(kind))"]
        case .toMany:
            let name = TableCatalog.linkTable(n)
            let table = qualified(name)
            statements = [
                """
                CREATE TABLE \(table) (source text COLLATE "C" NOT NULL, target text COLLATE "C" NOT NULL, position text COLLATE "C", \
                inverse text COLLATE "C", PRIMARY KEY (source, target))
                """,
                "CREATE INDEX \(name)_order ON \(table) (source, position NULLS FIRST, target)",
                "CREATE INDEX \(name)_target ON \(table) (target, inverse NULLS FIRST, source)",
            ]
        }
        for statement in statements { _ = try execute(PostgresQuery(unsafeSQL: statement)) }
        var insert = PostgresQuery(unsafeSQL: "INSERT INTO \(self.catalog) (number, kind, type, relation) VALUES ($1, $2, $3, $4)")
        insert.binds.append(n)
        insert.binds.append(entry.kind.rawValue)
        insert.binds.append(entry.type)
        insert.binds.append(entry.relation)
        _ = try execute(insert)
        if entry.kind != .toMany {
            var grown = catalog
            grown.add(entry)
            try makeView(of: entry.type, in: grown, execute)
        }
    }

    /// Makes (again) the view named after `type` that shows its entities with a column per
    /// property and to-one relation, for people reading the schema with `psql`. A type whose name
    /// another relation of the schema has, or that is no identifier (NUL, over 63 bytes), gets
    /// none.
    func makeView(of type: String, in catalog: TableCatalog, _ execute: PostgresExecute) throws {
        guard let table = catalog.entityTable(of: type), !type.utf8.contains(0), type.utf8.count <= 63 else { return }
        var existing = PostgresQuery(
            unsafeSQL: """
                SELECT c.relkind::text FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
                WHERE n.nspname = $1 AND c.relname = $2
                """
        )
        existing.binds.append(schema)
        existing.binds.append(type)
        let kind = try execute(existing).first.map { try $0.decode(String.self) }
        guard kind == nil || kind == "v" else { return }
        let name = "\"\(schema)\".\(TableCatalog.quoted(type))"
        _ = try execute(PostgresQuery(unsafeSQL: "DROP VIEW IF EXISTS \(name)"))
        _ = try execute(
            PostgresQuery(
                unsafeSQL: """
                    CREATE VIEW \(name) AS SELECT \(catalog.viewColumns(of: type, maxName: 63, asText: "::text").joined(separator: ", ")) \
                    FROM \(qualified(table)) WHERE pg_catalog.octet_length(payload) > 0
                    """
            )
        )
    }

    /// Version 2: the rows of version 1's `relata_entity` and `relata_link` moved into typed
    /// tables (through the write path itself, in batches), then those tables dropped.
    func upgradeToTypedTables(_ execute: @escaping PostgresExecute) throws {
        let exists = try execute(PostgresQuery(unsafeSQL: "SELECT pg_catalog.to_regclass('\(legacyEntity)') IS NOT NULL")).first?.decode(Bool.self) ?? false
        guard exists else { return }
        let writer = PostgresRowWriter(schema: self, tables: session(known: KnownCatalog(), execute), enqueue: { _ = try execute($0) })
        var after: (String, String)? = nil
        while true {
            var query = PostgresQuery(
                unsafeSQL: """
                    SELECT type, id, payload, links FROM \(legacyEntity) WHERE $1::text IS NULL OR (type, id) > ($1::text, $2::text)
                    ORDER BY type, id LIMIT 10000
                    """
            )
            query.binds.append(after?.0)
            query.binds.append(after?.1)
            var batch = StoreChanges()
            for row in try execute(query) {
                let (type, id, payload, links) = try row.decode((String, String, ByteBuffer, ByteBuffer?).self)
                var toOne: [ToOneLinkRecord] = []
                if let links { toOne = try ToOneLinkColumn.decode(Data(buffer: links), type: type, id: id) }
                batch.upsertedEntities.append(EntityRecord(type: type, id: id, payload: Data(buffer: payload), toOne: toOne))
                after = (type, id)
            }
            guard !batch.isEmpty else { break }
            try writer.write(batch)
        }
        var afterLink: [String]? = nil
        while true {
            var query = PostgresQuery(
                unsafeSQL: """
                    SELECT type, relation, source, target, position, inverse_position FROM \(legacyLink)
                    WHERE $1::text IS NULL OR (type, relation, source, target) > ($1::text, $2::text, $3::text, $4::text)
                    ORDER BY type, relation, source, target LIMIT 10000
                    """
            )
            for index in 0..<4 { query.binds.append(afterLink?[index]) }
            var batch = StoreChanges()
            for row in try execute(query) {
                let record = try PostgresTransaction.legacyLinkRecord(row)
                batch.upsertedLinks.append(record)
                afterLink = [record.type, record.relation, record.source, record.target]
            }
            guard !batch.isEmpty else { break }
            try writer.write(batch)
        }
        _ = try execute(PostgresQuery(unsafeSQL: "DROP TABLE \(legacyEntity), \(legacyLink)"))
    }
}
