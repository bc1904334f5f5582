import Foundation
import GRDB
import RelataCore

// The typed tables of format 7 (see `TableCatalog`): made on demand by the write that first
// stores a type or relation, inside its transaction, and listed in `relata_table`.

extension SQLiteSchema {
    /// The catalog as the file lists it.
    static func catalog(_ db: Database, path: String) throws -> TableCatalog {
        var entries: [TableCatalog.Entry] = []
        let rows = try Row.fetchCursor(db, sql: "SELECT number, kind, type, relation FROM relata_table ORDER BY number")
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "relata_table row \(entries.count + 1)" }, path: path)
            let number = Int64(try r.integer(0, "number"))
            guard let kind = TableCatalog.Kind(rawValue: try r.text(1, "kind")), TableCatalog.accepts(number, after: entries.last?.number) else {
                throw RelataError(code: .corruptedStore, entityType: "Store", message: "\(path) is damaged: relata_table row \(number) is not a table Relata makes")
            }
            entries.append(TableCatalog.Entry(number: number, kind: kind, type: try r.text(2, "type"), relation: try r.text(3, "relation")))
        }
        return TableCatalog(entries)
    }

    /// The tables a transaction on `db` reads and writes, starting from what the backend knows.
    static func session(_ db: Database, path: String, known: KnownCatalog, reads: StatementTally? = nil) -> TableSession {
        TableSession(
            known: known,
            read: {
                reads?.add()
                return try Self.catalog(db, path: path)
            },
            make: { entry, catalog in try create(entry, in: catalog, db) }
        )
    }

    /// Makes the table or columns `entry` names (its number already assigned) and lists it in
    /// the catalog.
    static func create(_ entry: TableCatalog.Entry, in catalog: TableCatalog, _ db: Database) throws {
        let n = entry.number
        switch entry.kind {
        case .entity:
            let table = TableCatalog.entityTable(n)
            // The count of entities (rows with a payload; a row that only holds links is not an
            // entity) is kept by the writer, which changes it once per write (`SQLiteRowWriter`).
            try db.execute(
                sql: """
                    CREATE TABLE \(table) (id TEXT PRIMARY KEY NOT NULL, payload BLOB NOT NULL, \(TableCatalog.updatedAtColumn) REAL) WITHOUT ROWID;
                    CREATE INDEX \(table)_updated ON \(table) (\(TableCatalog.updatedAtColumn));
                    INSERT INTO relata_count (number, count) VALUES (\(n), 0);
                    """
            )
        case .toOne:
            guard let table = catalog.entityTable(of: entry.type) else {
                throw RelataError(code: .storageFailed, entityType: entry.type, message: "no table for \(entry.type) to hold its relation \(entry.relation)")
            }
            let column = TableCatalog.Column(relation: entry.relation, number: n)
            // Sources of a target, in their order in its list, by index (rows without a link
            // stay out of it).
            try db.execute(
                sql: """
                    ALTER TABLE \(table) ADD COLUMN \(column.target) TEXT;
                    ALTER TABLE \(table) ADD COLUMN \(column.inverse) TEXT;
                    CREATE INDEX \(table)_\(column.target) ON \(table) (\(column.target), \(column.inverse)) WHERE \(column.target) IS NOT NULL;
                    """
            )
        case .property(let kind):
            guard let table = catalog.entityTable(of: entry.type) else {
                throw RelataError(code: .storageFailed, entityType: entry.type, message: "no table for \(entry.type) to hold its property \(entry.relation)")
            }
            try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN c\(n) \(declaredType(kind))")
        case .toMany:
            let table = TableCatalog.linkTable(n)
            try db.execute(
                sql: """
                    CREATE TABLE \(table) (
                        source TEXT NOT NULL, target TEXT NOT NULL, position TEXT, inverse TEXT, PRIMARY KEY (source, target)
                    ) WITHOUT ROWID;
                    CREATE INDEX \(table)_order ON \(table) (source, position, target);
                    CREATE INDEX \(table)_target ON \(table) (target, inverse, source);
                    """
            )
        }
        try db.execute(
            sql: "INSERT INTO relata_table (number, kind, type, relation) VALUES (?, ?, ?, ?)",
            arguments: [n, entry.kind.rawValue, entry.type, entry.relation]
        )
        if entry.kind != .toMany {
            var grown = catalog
            grown.add(entry)
            try makeView(of: entry.type, in: grown, db)
        }
    }

    /// Version 10: the column of when each entity was last saved, and its index, in an entity
    /// table of an older file (its rows keep NULL: adding a column rewrites nothing).
    static func addUpdatedAt(to table: String, _ db: Database) throws {
        let has = try Bool.fetchOne(
            db, sql: "SELECT EXISTS (SELECT 1 FROM pragma_table_info(?) WHERE name = ?)", arguments: [table, TableCatalog.updatedAtColumn]
        )
        guard has != true else { return }
        try db.execute(
            sql: """
                ALTER TABLE \(table) ADD COLUMN \(TableCatalog.updatedAtColumn) REAL;
                CREATE INDEX \(table)_updated ON \(table) (\(TableCatalog.updatedAtColumn));
                """
        )
    }

    /// Version 11: the entity tables' count triggers of older files dropped — the writer keeps
    /// `relata_count` from what it writes; the counts the triggers kept are exact and stay.
    static func dropCountTriggers(_ db: Database, path: String) throws {
        for (_, table) in try catalog(db, path: path).entityTypes {
            try db.execute(
                sql: "DROP TRIGGER IF EXISTS \(table)_insert; DROP TRIGGER IF EXISTS \(table)_update; DROP TRIGGER IF EXISTS \(table)_delete"
            )
        }
    }

    /// Makes (again) the view named after `type` that shows its entities with a column per
    /// property and to-one relation, for people reading the file with `sqlite3`. A type whose name
    /// another table or index of the file has (or SQLite reserves) gets none.
    static func makeView(of type: String, in catalog: TableCatalog, _ db: Database) throws {
        guard let table = catalog.entityTable(of: type), !type.utf8.contains(0), !type.lowercased().hasPrefix("sqlite_") else { return }
        let existing = try String.fetchOne(db, sql: "SELECT type FROM sqlite_master WHERE name = ? COLLATE NOCASE", arguments: [type])
        guard existing == nil || existing == "view" else { return }
        let name = TableCatalog.quoted(type)
        try db.execute(
            sql: """
                DROP VIEW IF EXISTS \(name);
                CREATE VIEW \(name) AS SELECT \(catalog.viewColumns(of: type).joined(separator: ", ")) FROM \(table) WHERE length(payload) > 0
                """
        )
    }

    /// The declared type of a property column holding `kind`: its affinity keeps each value as
    /// bound (unsigned integers above `Int64.max` as decimal text; JSON as text).
    static func declaredType(_ kind: PropertyColumnKind) -> String {
        switch kind {
        case .bool: "BOOLEAN"
        case .integer: "INTEGER"
        case .unsigned, .text, .json: "TEXT"
        case .real: "REAL"
        case .data: "BLOB"
        }
    }

    /// Version 7: the catalog, the counts and the dynamic links' indexes; the rows of
    /// `relata_entity` and `relata_link` moved into typed tables (through the write path itself),
    /// then those tables dropped.
    static func upgradeToTypedTables(_ db: Database, from found: Int, path: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE relata_table (
                    number INTEGER PRIMARY KEY, kind TEXT NOT NULL, type TEXT NOT NULL, relation TEXT NOT NULL, UNIQUE (kind, type, relation)
                );
                CREATE TABLE relata_count (number INTEGER PRIMARY KEY, count INTEGER NOT NULL);
                CREATE INDEX relata_dynamic_link_source ON relata_dynamic_link (source_type, source);
                CREATE INDEX relata_dynamic_link_target ON relata_dynamic_link (target_type, target);
                """
        )
        guard found > 0 else {
            try db.execute(sql: "DROP TABLE relata_entity; DROP TABLE relata_link;")
            return
        }
        let writer = SQLiteRowWriter(db: db, tables: session(db, path: path, known: KnownCatalog()))
        // In batches, so an upgrade holds a batch of rows in memory, never the file.
        var batch = StoreChanges()
        func flush() throws {
            try writer.write(batch)
            batch = StoreChanges()
        }
        let entities = try Row.fetchCursor(db, sql: "SELECT type, id, payload, links FROM relata_entity ORDER BY type, id")
        var index = 0
        while let row = try entities.next() {
            index += 1
            let n = index
            let key = CheckedRow(row: row, place: { "relata_entity row \(n)" }, path: path)
            let type = try key.text(0, "type"), id = try key.text(1, "id")
            let r = CheckedRow(row: row, place: { "relata_entity row (\(type), \"\(id)\")" }, path: path)
            var toOne: [ToOneLinkRecord] = []
            if let links = try r.optionalData(3, "links") { toOne = try ToOneLinkColumn.decode(links, type: type, id: id) }
            batch.upsertedEntities.append(EntityRecord(type: type, id: id, payload: try r.data(2, "payload"), toOne: toOne))
            if batch.upsertedEntities.count >= 10_000 { try flush() }
        }
        let links = try Row.fetchCursor(db, sql: "SELECT type, relation, source, target, position, inverse_position FROM relata_link")
        index = 0
        while let row = try links.next() {
            index += 1
            let n = index
            let key = CheckedRow(row: row, place: { "relata_link row \(n)" }, path: path)
            let (type, relation, source) = (try key.text(0, "type"), try key.text(1, "relation"), try key.text(2, "source"))
            let r = CheckedRow(row: row, place: { "relata_link row (\(type).\(relation), \"\(source)\")" }, path: path)
            batch.upsertedLinks.append(
                LinkRecord(
                    type: type, relation: relation, source: source, target: try r.text(3, "target"),
                    position: try r.optionalText(4, "position"), inversePosition: try r.optionalText(5, "inverse_position")
                )
            )
            if batch.upsertedLinks.count >= 10_000 { try flush() }
        }
        try flush()
        try db.execute(sql: "DROP TABLE relata_entity; DROP TABLE relata_link;")
    }
}
