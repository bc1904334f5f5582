import Foundation
import PostgresNIO
import RelataCore

/// The SQL indexes a PostgreSQL store keeps for the ``Index`` and ``HashIndex`` declarations of
/// its types: one B-tree per declaration on the properties' columns (`e<n>_x_c<a>_c<b>`), made
/// when missing and dropped when no longer declared, by the store's open and by a write of the
/// type, under the writers' lock; and a table of trigrams per ``FullTextIndex``
/// (``PostgresFullTextTable``), filled when made and kept by every write of the type.
struct PostgresIndexes {
    let transaction: PostgresTransaction

    /// Makes and drops the indexes of the types in `indexes` whose declarations differ from what
    /// `synced` says this backend last left; returns what it leaves.
    func sync(_ indexes: [String: [StoredIndex]], synced: [String: [StoredIndex]]) throws -> [String: [StoredIndex]] {
        var synced = synced
        let tables = transaction.tables!
        let schema = transaction.schema
        let execute: PostgresExecute = { try transaction.execute($0) }
        for (type, declared) in indexes.sorted(by: { $0.key < $1.key }) where synced[type] != declared {
            guard let table = try tables.entityTable(of: type) else { continue }
            var wanted = Set<String>(), wantedText = Set<String>(), complete = true
            let found = try PostgresFullTextTable.existing(of: table, in: schema, execute)
            // A table of an earlier version (no `_terms`) is made again if still declared.
            for text in found.outdated { try text.drop(in: schema, execute) }
            var existingText = found.complete
            for index in declared {
                guard let columns = tables.catalog.columns(of: type, for: index) else {
                    complete = false
                    continue
                }
                if index.kind == .fullText {
                    let text = PostgresFullTextTable(entityTable: table, columns: columns)
                    wantedText.insert(text.name)
                    if !existingText.contains(text) {
                        try text.create(in: schema, execute)
                        existingText.append(text)
                    }
                    continue
                }
                let name = "\(table)_x_" + columns.joined(separator: "_")
                wanted.insert(name)
                try transaction.execute(PostgresQuery(unsafeSQL: "CREATE INDEX IF NOT EXISTS \(name) ON \(schema.qualified(table)) (\(columns.joined(separator: ", ")))"))
            }
            var query = PostgresQuery(
                unsafeSQL: "SELECT indexname FROM pg_catalog.pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE $3"
            )
            query.binds.append(schema.schema)
            query.binds.append(table)
            query.binds.append(table + "\\_x\\_%")
            for row in try transaction.execute(query) {
                let name = try row.decode(String.self)
                if !wanted.contains(name) { try transaction.execute(PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(schema.qualified(name))")) }
            }
            for text in existingText where !wantedText.contains(text.name) {
                try text.drop(in: schema, execute)
            }
            synced[type] = complete ? declared : nil
        }
        return synced
    }

    /// What ``sync(_:synced:)`` would leave for `indexes` when the schema holds every declared
    /// index of each type with a table and no other (nor a full-text table of an earlier
    /// version): nothing to make or drop, found without the write lock; `nil` otherwise.
    func held(_ indexes: [String: [StoredIndex]]) throws -> [String: [StoredIndex]]? {
        let tables = transaction.tables!
        let schema = transaction.schema
        var held: [String: [StoredIndex]] = [:]
        for (type, declared) in indexes {
            guard let table = try tables.entityTable(of: type) else { continue }
            let found = try PostgresFullTextTable.existing(of: table, in: schema) { try transaction.execute($0) }
            guard found.outdated.isEmpty else { return nil }
            var wanted = Set<String>(), wantedText = Set<String>()
            for index in declared {
                // A property without a column yet: the write that makes it makes the index.
                guard let columns = tables.catalog.columns(of: type, for: index) else { return nil }
                if index.kind == .fullText {
                    wantedText.insert(PostgresFullTextTable(entityTable: table, columns: columns).name)
                } else {
                    wanted.insert("\(table)_x_" + columns.joined(separator: "_"))
                }
            }
            var query = PostgresQuery(
                unsafeSQL: "SELECT indexname FROM pg_catalog.pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE $3"
            )
            query.binds.append(schema.schema)
            query.binds.append(table)
            query.binds.append(table + "\\_x\\_%")
            let made = Set(try transaction.execute(query).map { try $0.decode(String.self) })
            guard made == wanted, Set(found.complete.map { $0.name }) == wantedText else { return nil }
            held[type] = declared
        }
        return held
    }

    /// Keeps every full-text table of the types `changes` writes: each stored row's trigrams
    /// written again, each erased row's removed, one statement per table (sent without waiting).
    /// `rows` are the rows as split for their columns. The tables of a type this backend has not
    /// synced are looked up in the schema.
    func keepFullText(_ changes: StoreChanges, rows: [(EntityRecord, TableSession.SplitRow)], synced: [String: [StoredIndex]]) throws {
        let tables = transaction.tables!
        let schema = transaction.schema
        let execute: PostgresExecute = { try transaction.execute($0) }
        var byType: [String: [PostgresFullTextTable]] = [:]
        func texts(of type: String) throws -> [PostgresFullTextTable] {
            if let known = byType[type] { return known }
            guard let table = try tables.entityTable(of: type) else { return [] }
            let found: [PostgresFullTextTable]
            if let declared = synced[type] {
                found = declared.filter { $0.kind == .fullText }.compactMap { index in
                    tables.catalog.columns(of: type, for: index).map { PostgresFullTextTable(entityTable: table, columns: $0) }
                }
            } else {
                found = try PostgresFullTextTable.existing(of: table, in: schema, execute).complete
            }
            byType[type] = found
            return found
        }
        var entries: [PostgresFullTextTable: [String: [String]?]] = [:]
        for key in changes.deletedEntities {
            for text in try texts(of: key.type) { entries[text, default: [:]][key.id] = .some(nil) }
        }
        for (record, row) in rows {
            for text in try texts(of: record.type) {
                let values = record.hasEntity ? text.texts(of: row) : nil
                entries[text, default: [:]][record.id] = .some(values)
            }
        }
        for (text, rows) in entries.sorted(by: { $0.key.name < $1.key.name }) {
            transaction.enqueue(text.applying(rows.map { (id: $0.key, texts: $0.value) }, in: schema))
        }
    }
}
