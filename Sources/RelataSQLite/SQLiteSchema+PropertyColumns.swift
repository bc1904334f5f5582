import Foundation
import GRDB
import RelataCore

// Version 8: each stored property of an entity in a typed column (`c<n>`, see `SplitPayload`);
// the row's `payload` keeps what no column holds. A file of version 7 is upgraded row by row in
// batches, each its own write transaction, after the open: `relata_meta` keeps where the upgrade
// is (`columns_table`, `columns_after`), so an interrupted upgrade resumes at the next open. A
// row not upgraded yet (its payload whole, its columns NULL) reads as it did, so the store is
// usable meanwhile, by this process and others.

extension SQLiteSchema {
    /// The `relata_meta` key of the entity table (its catalog number) the upgrade is in.
    static let upgradeTableKey = "columns_table"
    /// The `relata_meta` key of the last id the upgrade moved in that table.
    static let upgradeAfterKey = "columns_after"
    /// How many rows one transaction of the upgrade moves.
    static let upgradeBatch = 2_000

    /// Marks a file of version 7 for the upgrade to property columns (in the transaction that
    /// sets its version to 8).
    static func markPropertyColumnsUpgrade(_ db: Database) throws {
        try db.execute(
            sql: "INSERT OR REPLACE INTO relata_meta (key, value) VALUES (?, '0'), (?, '')",
            arguments: [upgradeTableKey, upgradeAfterKey]
        )
    }

    /// Whether the file has rows the upgrade has not moved yet.
    static func hasPendingUpgrade(_ db: Database) throws -> Bool {
        try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = ?", arguments: [upgradeTableKey]) != nil
    }

    /// Moves the properties of rows written by version 7 into columns, a batch per transaction,
    /// until none is left; then removes the marker. Each batch takes the write lock.
    static func upgradeToPropertyColumns(_ queue: DatabaseQueue, path: String) throws {
        var batches = 0
        while batches != upgradeBatchesBeforeStop, try queue.writeWithoutTransaction({ db in
            var more = false
            try db.inTransaction(.immediate) {
                more = try upgradeBatch(db, path: path)
                return .commit
            }
            return more
        }) {
            batches += 1
        }
    }

    /// One batch of the upgrade: `true` while rows remain.
    private static func upgradeBatch(_ db: Database, path: String) throws -> Bool {
        guard let tableText = try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = ?", arguments: [upgradeTableKey]) else {
            return false  // another process finished it
        }
        guard let current = Int64(tableText) else {
            throw RelataError(code: .corruptedStore, entityType: "Store", message: "\(path) is damaged: relata_meta's \(upgradeTableKey) is not a number")
        }
        let after = try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = ?", arguments: [upgradeAfterKey]) ?? ""
        let tables = session(db, path: path, known: KnownCatalog())
        try tables.refresh()
        let types = tables.catalog.entries.filter { $0.kind == .entity && $0.number >= current }
        guard let entry = types.first else {
            try db.execute(sql: "DELETE FROM relata_meta WHERE key IN (?, ?)", arguments: [upgradeTableKey, upgradeAfterKey])
            return false
        }
        let table = TableCatalog.entityTable(entry.number)
        // `after` is '' at a table's start: every id sorts after the empty text.
        var records: [EntityRecord] = []
        let rows = try Row.fetchCursor(
            db, sql: "SELECT id, payload FROM \(table) WHERE id > ? ORDER BY id LIMIT ?", arguments: [after, upgradeBatch]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "a row of \(entry.type)" }, path: path)
            let id = try r.text(0, "id")
            records.append(EntityRecord(type: entry.type, id: id, payload: try r.data(1, "payload")))
        }
        let split = try tables.split(records)
        let columns = tables.catalog.propertyColumns(of: entry.type)
        if !columns.isEmpty {
            let parameters = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.number, Int32($0 + 2)) })
            let update = try BoundStatement(
                db,
                sql: "UPDATE \(table) SET payload = ?, \(columns.map { "\($0.column) = ?" }.joined(separator: ", ")) WHERE id = ?"
            )
            // A row whose payload has nothing for a column was upgraded already, or has nothing
            // to move: it is left as it is.
            for (record, row) in zip(records, split) where !row.values.isEmpty {
                try update.bind(1, row.rest)
                for (number, value) in row.values {
                    guard let parameter = parameters[number] else { throw TableSession.missing(record.type, "column c\(number)") }
                    try update.bind(parameter, value)
                }
                try update.bind(Int32(columns.count + 2), record.id)
                try update.step()
            }
        }
        // The full-text tables a store opened meanwhile made read these rows' text from the
        // columns, empty until now.
        try SQLiteIndexes(db: db, tables: tables).keepFullText(StoreChanges(), rows: Array(zip(records, split)), synced: [:])
        if records.count < upgradeBatch {
            try db.execute(
                sql: "UPDATE relata_meta SET value = ? WHERE key = ?; UPDATE relata_meta SET value = '' WHERE key = ?",
                arguments: ["\(entry.number + 1)", upgradeTableKey, upgradeAfterKey]
            )
        } else {
            try db.execute(sql: "UPDATE relata_meta SET value = ? WHERE key = ?", arguments: [records.last!.id, upgradeAfterKey])
        }
        return true
    }
}
