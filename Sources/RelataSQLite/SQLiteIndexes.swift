import Foundation
import GRDB
import RelataCore

/// The indexes a SQLite store keeps for the declarations of its types (``StoredIndex``): a SQL
/// index per ``Index``, ``HashIndex`` or ``Unique`` on the properties' columns (`e<n>_x_c<a>_c<b>`), and per
/// ``FullTextIndex`` a table of the text's trigrams (`e<n>_fts_c<a>…`, see ``FullTextTable``).
/// A write of a type makes the declared ones storage lacks (a full-text table filled from the
/// type's rows) and drops those of the type no longer declared, under the write lock; it keeps
/// every full-text table of the types it writes. Names are made of catalog numbers only.
struct SQLiteIndexes {
    let db: Database
    let tables: TableSession

    /// What a backend knows of one type's indexes after its write made them match the type's
    /// declarations.
    struct Synced {
        var declared: [StoredIndex]
        /// The type's full-text tables, which its writes keep.
        var fullText: [FullTextTable]
        /// Whether every declared index is made (one whose properties have no column yet is made
        /// by a write that makes the column).
        var complete: Bool
        /// The columns leading the SQL indexes made (not full-text): what a test of one of them
        /// can search.
        var leadColumns: Set<String>
    }

    /// Makes and drops the indexes of the types `changes` stores whose declarations differ from
    /// what `synced` says this backend last left, and those of types with an index not made yet
    /// when the write made columns (a type's declarations rarely change: the check costs one
    /// comparison per type and write).
    func sync(_ changes: StoreChanges, synced: inout [String: Synced]) throws {
        var sortsOnDisk = false
        defer { if sortsOnDisk { try? db.execute(sql: SQLiteBackend.writerTempStore) } }
        for (type, declared) in changes.indexes.sorted(by: { $0.key < $1.key }) {
            if let known = synced[type], known.declared == declared, known.complete || !tables.grew { continue }
            guard let table = try tables.entityTable(of: type) else { continue }
            // An index made over stored rows sorts them as SQLite does by default, in temporary
            // files past its cache, not in memory as the writer's other statements do (see
            // `SQLiteBackend.init`): a store larger than memory can get a new index. (SQLite
            // refuses the change only while a temporary table is open, which Relata never makes.)
            if !sortsOnDisk {
                try? db.execute(sql: "PRAGMA temp_store = FILE")
                sortsOnDisk = true
            }
            synced[type] = try sync(type, table: table, declared)
        }
    }

    /// Makes and drops `table`'s indexes for `declared`; one whose properties have no column yet
    /// is made by a later write.
    private func sync(_ type: String, table: String, _ declared: [StoredIndex]) throws -> Synced {
        var complete = true
        var fullText: [FullTextTable] = [], leadColumns = Set<String>()
        var wanted = Set<String>(), wantedText = Set<String>()
        // Tables of the earlier layout are made again (see `FullTextTable`).
        for name in try FullTextTable.earlierNames(of: table, db) { try FullTextTable.drop(name, db) }
        for index in declared {
            guard let columns = tables.catalog.columns(of: type, for: index) else {
                complete = false
                continue
            }
            if index.kind == .fullText {
                let text = FullTextTable(entityTable: table, columns: columns)
                wantedText.insert(text.name)
                fullText.append(text)
                if try !exists(text.name + "_stats") { try text.create(db, filling: type) }
            } else {
                let name = "\(table)_x_" + columns.joined(separator: "_")
                wanted.insert(name)
                columns.first.map { _ = leadColumns.insert($0) }
                try db.execute(sql: "CREATE INDEX IF NOT EXISTS \(name) ON \(table) (\(columns.joined(separator: ", ")))")
            }
        }
        for name in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND name GLOB ?", arguments: [table, table + "_x_*"])
        where !wanted.contains(name) {
            try db.execute(sql: "DROP INDEX IF EXISTS \(name)")
        }
        for name in try FullTextTable.names(of: table, db) where !wantedText.contains(name) {
            try FullTextTable.drop(name, db)
        }
        return Synced(declared: declared, fullText: fullText, complete: complete, leadColumns: leadColumns)
    }

    /// What ``sync(_:synced:)`` would leave for `indexes` when the file holds every declared
    /// index of each type with a table and no other (nor a full-text table of the earlier
    /// layout): nothing to make or drop, found without a write; `nil` otherwise.
    func held(_ indexes: [String: [StoredIndex]]) throws -> [String: Synced]? {
        try tables.refresh()
        // Every index and full-text table of the file in one statement (at each open).
        var madeIndexes: [String: Set<String>] = [:], textTables: [String] = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT type, tbl_name, name FROM sqlite_master WHERE (type = 'index' AND name GLOB '*_x_*') OR (type = 'table' AND name GLOB '*_fts_*')"
        )
        while let row = try rows.next() {
            let name: String = row[2]
            if row[0] as String == "index" { madeIndexes[row[1], default: []].insert(name) } else { textTables.append(name) }
        }
        var held: [String: Synced] = [:]
        for (type, declared) in indexes {
            guard let table = try tables.entityTable(of: type) else { continue }
            guard FullTextTable.names(of: table, statistics: "_stat", among: textTables).isEmpty else { return nil }
            var wanted = Set<String>(), wantedText = Set<String>(), fullText: [FullTextTable] = [], leadColumns = Set<String>()
            for index in declared {
                // A property without a column yet: the write that makes it makes the index.
                guard let columns = tables.catalog.columns(of: type, for: index) else { return nil }
                if index.kind == .fullText {
                    let text = FullTextTable(entityTable: table, columns: columns)
                    wantedText.insert(text.name)
                    fullText.append(text)
                } else {
                    wanted.insert("\(table)_x_" + columns.joined(separator: "_"))
                    columns.first.map { _ = leadColumns.insert($0) }
                }
            }
            let made = (madeIndexes[table] ?? []).filter { $0.hasPrefix(table + "_x_") }
            guard made == wanted, Set(FullTextTable.names(of: table, statistics: "_stats", among: textTables)) == wantedText else { return nil }
            held[type] = Synced(declared: declared, fullText: fullText, complete: true, leadColumns: leadColumns)
        }
        return held
    }

    private func exists(_ name: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)", arguments: [name]) ?? false
    }

    /// Keeps every full-text table of the types `changes` writes: each stored row's trigrams
    /// written again, each erased row's removed. `rows` are the rows as split for their columns.
    /// The tables of a type this backend has not synced are looked up in the file.
    func keepFullText(_ changes: StoreChanges, rows: [(EntityRecord, TableSession.SplitRow)], synced: [String: Synced]) throws {
        var byType = synced.mapValues(\.fullText)
        func texts(of type: String) throws -> [FullTextTable] {
            if let known = byType[type] { return known }
            guard let table = try tables.entityTable(of: type) else { return [] }
            let found = try FullTextTable.names(of: table, db).compactMap { FullTextTable(name: $0, entityTable: table) }
            byType[type] = found
            return found
        }
        var entries: [String: (table: FullTextTable, entries: [(id: String, texts: [String]?)])] = [:]
        for key in changes.deletedEntities {
            for text in try texts(of: key.type) { entries[text.name, default: (text, [])].entries.append((key.id, nil)) }
        }
        for (record, row) in rows {
            for text in try texts(of: record.type) {
                let values = record.hasEntity ? text.texts(of: row) : nil
                entries[text.name, default: (text, [])].entries.append((record.id, values))
            }
        }
        for (_, table) in entries.sorted(by: { $0.key < $1.key }) { try table.table.apply(table.entries, db) }
    }
}
