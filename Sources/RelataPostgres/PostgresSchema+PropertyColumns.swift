import Foundation
import Logging
import NIOCore
import PostgresNIO
import RelataCore

// Version 3: each stored property of an entity in a typed column (`c<n>`, see `SplitPayload`);
// the row's `payload` keeps what no column holds. A version 2 schema is upgraded row by row in
// batches, each its own transaction under the writers' lock, after the open: `relata_meta` keeps
// where the upgrade is, so an interrupted upgrade resumes at the next open. A row not upgraded
// yet (its payload whole, its columns NULL) reads as it did.

extension PostgresSchema {
    /// The PostgreSQL type of a property column holding `kind` (unsigned integers above
    /// `Int64.max` as decimal text; text compared bytewise, as ids are).
    static func columnType(_ kind: PropertyColumnKind) -> String {
        switch kind {
        case .bool: "boolean"
        case .integer: "bigint"
        case .unsigned, .text: "text COLLATE \"C\""
        case .real: "double precision"
        case .data: "bytea"
        case .json: "jsonb"
        }
    }

    /// The array type a property column's values are bound as, and the cast of one element
    /// into the column.
    static func bindType(_ kind: PropertyColumnKind) -> (array: String, cast: String) {
        switch kind {
        case .bool: ("bool", "")
        case .integer: ("int8", "")
        case .unsigned, .text: ("text", "")
        case .real: ("float8", "")
        case .data: ("bytea", "")
        case .json: ("text", "::jsonb")
        }
    }

    /// Binds the values of `column` in `rows` (`nil` where a row has none) as two arrays: whether
    /// each row has one, and the value (a placeholder where not).
    static func bind(_ column: TableCatalog.PropertyColumn, _ rows: [[Int64: PropertyValue]], to query: inout PostgresQuery) {
        let values = rows.map { $0[column.number] }
        query.binds.append(values.map { $0 != nil })
        switch column.kind {
        case .bool: query.binds.append(values.map { if case .bool(let value) = $0 { value } else { false } })
        case .integer: query.binds.append(values.map { if case .int(let value) = $0 { value } else { Int64(0) } })
        case .unsigned: query.binds.append(values.map { if case .uint(let value) = $0 { String(value) } else { "" } })
        case .real: query.binds.append(values.map { if case .double(let value) = $0 { value } else { 0.0 } })
        case .text: query.binds.append(values.map { if case .text(let value) = $0 { value } else { "" } })
        case .data: query.binds.append(values.map { if case .data(let value) = $0 { ByteBuffer(bytes: value) } else { ByteBuffer() } })
        case .json: query.binds.append(values.map { if case .json(let value) = $0 { value } else { "null" } })
        }
    }

    /// The value of property column `kind` in `cell`, `nil` for NULL.
    static func property(_ cell: PostgresCell, _ kind: PropertyColumnKind, type: String, name: String) throws -> PropertyValue? {
        switch kind {
        case .bool: return try cell.decode(Bool?.self).map(PropertyValue.bool)
        case .integer: return try cell.decode(Int64?.self).map(PropertyValue.int)
        case .unsigned:
            guard let text = try cell.decode(String?.self) else { return nil }
            guard let value = UInt64(text) else {
                throw RelataError(code: .corruptedStore, entityType: type, message: "the column of \(type).\(name) holds \"\(text.prefix(40))\", not an unsigned integer")
            }
            return .uint(value)
        case .real: return try cell.decode(Double?.self).map(PropertyValue.double)
        case .text: return try cell.decode(String?.self).map(PropertyValue.text)
        case .data: return try cell.decode(ByteBuffer?.self).map { PropertyValue.data(Data(buffer: $0)) }
        case .json: return try cell.decode(String?.self).map(PropertyValue.json)
        }
    }

    /// Marks a version 2 schema for the upgrade (in the transaction that sets its version to 3).
    func markPropertyColumnsUpgrade(_ execute: PostgresExecute) throws {
        _ = try execute(PostgresQuery(unsafeSQL: "INSERT INTO \(meta) (key, value) VALUES ('columns_table', '0'), ('columns_after', '') ON CONFLICT (key) DO NOTHING"))
    }

    /// Moves the properties of rows written by version 2 into columns, a batch per transaction
    /// under the writers' lock, until none is left; then removes the marker.
    func upgradeToPropertyColumns(on connection: PostgresConnection, logger: Logger) throws {
        let execute: PostgresExecute = { query in try connection.query(query, logger: logger).answer(from: connection).rows }
        while true {
            _ = try execute("BEGIN")
            do {
                _ = try execute(PostgresQuery(unsafeSQL: "SELECT pg_catalog.pg_advisory_xact_lock(\(lockKey))"))
                let more = try upgradeBatch(execute)
                _ = try execute("COMMIT")
                if !more { return }
            } catch {
                _ = try? execute("ROLLBACK")
                throw error
            }
        }
    }

    /// How many rows one transaction of the upgrade moves.
    static let upgradeBatch = 2_000

    /// One batch of the upgrade: `true` while rows remain.
    private func upgradeBatch(_ execute: @escaping PostgresExecute) throws -> Bool {
        var marker: [String: String] = [:]
        for row in try execute(PostgresQuery(unsafeSQL: "SELECT key, value FROM \(meta) WHERE key IN ('columns_table', 'columns_after')")) {
            let (key, value) = try row.decode((String, String).self)
            marker[key] = value
        }
        guard let tableText = marker["columns_table"] else { return false }
        guard let current = Int64(tableText) else {
            throw RelataError(code: .corruptedStore, entityType: "Store", message: "schema \(schema) is damaged: relata_meta's columns_table is not a number")
        }
        let tables = session(known: KnownCatalog(), execute)
        try tables.refresh()
        guard let entry = tables.catalog.entries.first(where: { $0.kind == .entity && $0.number >= current }) else {
            _ = try execute(PostgresQuery(unsafeSQL: "DELETE FROM \(meta) WHERE key IN ('columns_table', 'columns_after')"))
            return false
        }
        let table = qualified(TableCatalog.entityTable(entry.number))
        var select = PostgresQuery(unsafeSQL: "SELECT id, payload FROM \(table) WHERE id > $1 ORDER BY id LIMIT \(Self.upgradeBatch)")
        select.binds.append(marker["columns_after"] ?? "")
        let records = try execute(select).map { row in
            let (id, payload) = try row.decode((String, ByteBuffer).self)
            return EntityRecord(type: entry.type, id: id, payload: Data(buffer: payload))
        }
        let split = try tables.split(records)
        let columns = tables.catalog.propertyColumns(of: entry.type)
        // A row whose payload has nothing for a column was upgraded already, or has nothing to
        // move: it is left as it is.
        let moved = zip(records, split).filter { !$1.values.isEmpty }
        if !columns.isEmpty, !moved.isEmpty {
            var types = ["text", "bytea"], aliases = ["id", "payload"]
            var sets = ["payload = k.payload"]
            for (offset, column) in columns.enumerated() {
                let (array, cast) = Self.bindType(column.kind)
                types += ["bool", array]
                aliases += ["h\(offset)", "v\(offset)"]
                sets.append("\(column.column) = CASE WHEN k.h\(offset) THEN k.v\(offset)\(cast) END")
            }
            var update = PostgresQuery(
                unsafeSQL: """
                    UPDATE \(table) AS t SET \(sets.joined(separator: ", "))
                    FROM ROWS FROM (\(PostgresRowWriter.unnest(types))) AS k(\(aliases.joined(separator: ", "))) WHERE t.id = k.id
                    """
            )
            update.binds.append(moved.map(\.0.id))
            update.binds.append(moved.map { ByteBuffer(bytes: $0.1.rest) })
            let values = moved.map { Dictionary($0.1.values, uniquingKeysWith: { first, _ in first }) }
            for column in columns { Self.bind(column, values, to: &update) }
            _ = try execute(update)
        }
        var next = PostgresQuery(unsafeSQL: "UPDATE \(meta) SET value = CASE key WHEN 'columns_table' THEN $1 ELSE $2 END WHERE key IN ('columns_table', 'columns_after')")
        if records.count < Self.upgradeBatch {
            next.binds.append("\(entry.number + 1)")
            next.binds.append("")
        } else {
            next.binds.append(tableText)
            next.binds.append(records.last!.id)
        }
        _ = try execute(next)
        return true
    }
}
