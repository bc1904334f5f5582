import Foundation
import NIOCore
import PostgresNIO
import RelataCore

/// Writes the rows of a ``StoreChanges`` into the typed tables, making the tables a new type or
/// relation needs: one statement per table and kind of change, the rows passed as arrays
/// (`unnest`), whatever their number.
struct PostgresRowWriter {
    let schema: PostgresSchema
    let tables: TableSession
    /// Sends a statement whose rows are not needed: in a store's write without waiting for its
    /// answer (see `PostgresTransaction.enqueue(_:)`: the rows travel with the log record that
    /// follows them); elsewhere, run.
    let enqueue: (PostgresQuery) throws -> Void

    /// `unnest` of `count` array parameters from `$first` on, with `types`.
    static func unnest(_ types: [String], from first: Int = 1) -> String {
        types.enumerated().map { "pg_catalog.unnest($\(first + $0.offset)::\($0.element)[])" }.joined(separator: ", ")
    }

    /// Writes `changes`; returns each entity row written with its row as split for its columns
    /// (what the full-text tables are kept from).
    @discardableResult
    func write(_ changes: StoreChanges) throws -> [(EntityRecord, TableSession.SplitRow)] {
        // Every to-one column of a type is written with each of its rows (a link removed is set
        // to NULL), so a write knows every column, those other connections added included: the
        // catalog is read again unless it is known current (the writers' lock keeps it as it is
        // until the commit).
        if !tables.isCurrent { try tables.refresh() }
        try tables.prepare(for: changes)
        for (type, keys) in changes.deletedEntities.groupedInOrder(by: \.type) {
            guard let table = try tables.entityTable(of: type) else { continue }
            var query = PostgresQuery(unsafeSQL: "DELETE FROM \(schema.qualified(table)) WHERE id = ANY($1::text[])")
            query.binds.append(keys.map(\.id))
            try enqueue(query)
        }
        var written: [(EntityRecord, TableSession.SplitRow)] = []
        for (type, records) in changes.upsertedEntities.groupedInOrder(by: \.type) { written += try upsert(type, records) }
        for (name, keys) in changes.deletedLinks.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard let table = try tables.linkTable(of: name[0], relation: name[1]) else { continue }
            var query = PostgresQuery(
                unsafeSQL: """
                    DELETE FROM \(schema.qualified(table)) l USING ROWS FROM (\(Self.unnest(["text", "text"]))) AS k(source, target)
                    WHERE l.source = k.source AND l.target = k.target
                    """
            )
            query.binds.append(keys.map(\.source))
            query.binds.append(keys.map(\.target))
            try enqueue(query)
        }
        if !changes.deletedDynamicLinks.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: """
                    DELETE FROM \(schema.dynamicLink) d
                    USING ROWS FROM (\(Self.unnest(Array(repeating: "text", count: 5)))) AS k(kind, source_type, source, target_type, target)
                    WHERE d.kind = k.kind AND d.source_type = k.source_type AND d.source = k.source AND d.target_type = k.target_type AND d.target = k.target
                    """
            )
            for column in PostgresTransaction.columns(changes.deletedDynamicLinks) { query.binds.append(column) }
            try enqueue(query)
        }
        if !changes.insertedDynamicLinks.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(schema.dynamicLink) (kind, source_type, source, target_type, target)
                    SELECT * FROM ROWS FROM (\(Self.unnest(Array(repeating: "text", count: 5)))) ON CONFLICT DO NOTHING
                    """
            )
            for column in PostgresTransaction.columns(changes.insertedDynamicLinks) { query.binds.append(column) }
            try enqueue(query)
        }
        for (name, records) in changes.upsertedLinks.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard let table = try tables.linkTable(of: name[0], relation: name[1]) else { throw TableSession.missing(name[0], name[1]) }
            // One row per link (the last wins), as `ON CONFLICT DO UPDATE` needs.
            var rows: [LinkKey: LinkRecord] = [:]
            for record in records { rows[record.key] = record }
            let unique = Array(rows.values)
            // Positions are never empty, so '' stands for none.
            var query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(schema.qualified(table)) (source, target, position, inverse)
                    SELECT source, target, NULLIF(position, ''), NULLIF(inverse, '') FROM ROWS FROM (\(Self.unnest(Array(repeating: "text", count: 4))))
                    AS k(source, target, position, inverse)
                    ON CONFLICT (source, target) DO UPDATE SET position = EXCLUDED.position, inverse = EXCLUDED.inverse
                    """
            )
            query.binds.append(unique.map(\.source))
            query.binds.append(unique.map(\.target))
            query.binds.append(unique.map { $0.position ?? "" })
            query.binds.append(unique.map { $0.inversePosition ?? "" })
            try enqueue(query)
        }
        return written
    }

    /// Stores the entity rows of `type`, each whole (the payload's rest, every property column
    /// and every to-one column of the type; a property or relation the row has no value for is
    /// set to NULL), in one statement. Returns each row written (each id once) as split.
    private func upsert(_ type: String, _ records: [EntityRecord]) throws -> [(EntityRecord, TableSession.SplitRow)] {
        guard let table = try tables.entityTable(of: type) else { throw TableSession.missing(type, nil) }
        var rows: [String: EntityRecord] = [:]
        for record in records { rows[record.id] = record }
        let unique = Array(rows.values)
        let split = try tables.split(unique)
        let columns = tables.toOneColumns(of: type)
        let properties = tables.catalog.propertyColumns(of: type)
        // Per to-one column: whether the row has a link (a target id may be empty text), its
        // target, and its inverse position ('' for none: positions are never empty).
        var names = ["id", "payload", TableCatalog.updatedAtColumn], selected = ["k.id", "k.payload", "CASE WHEN k.uh THEN k.uv END"]
        var types = ["text", "bytea", "bool", "float8"]
        for (offset, column) in columns.enumerated() {
            names += [column.target, column.inverse]
            selected += ["CASE WHEN k.h\(offset) THEN k.t\(offset) END", "CASE WHEN k.h\(offset) THEN NULLIF(k.i\(offset), '') END"]
            types += ["bool", "text", "text"]
        }
        var aliases = ["id", "payload", "uh", "uv"] + columns.indices.flatMap { ["h\($0)", "t\($0)", "i\($0)"] }
        for (offset, column) in properties.enumerated() {
            let (array, cast) = PostgresSchema.bindType(column.kind)
            names.append(column.column)
            selected.append("CASE WHEN k.ph\(offset) THEN k.pv\(offset)\(cast) END")
            types += ["bool", array]
            aliases += ["ph\(offset)", "pv\(offset)"]
        }
        var query = PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(schema.qualified(table)) (\(names.joined(separator: ", ")))
                SELECT \(selected.joined(separator: ", ")) FROM ROWS FROM (\(Self.unnest(types)))
                AS k(\(aliases.joined(separator: ", ")))
                ON CONFLICT (id) DO UPDATE SET \(names.dropFirst().map { "\($0) = EXCLUDED.\($0)" }.joined(separator: ", "))
                """
        )
        query.binds.append(unique.map(\.id))
        query.binds.append(split.map { ByteBuffer(bytes: $0.rest) })
        query.binds.append(unique.map { $0.updatedAt != nil })
        query.binds.append(unique.map { $0.updatedAt?.timeIntervalSinceReferenceDate ?? 0 })
        for column in columns {
            let links = unique.map { record in record.toOne.first { $0.relation == column.relation } }
            query.binds.append(links.map { $0 != nil })
            query.binds.append(links.map { $0?.target ?? "" })
            query.binds.append(links.map { $0?.inversePosition ?? "" })
        }
        let values = split.map { Dictionary($0.values, uniquingKeysWith: { first, _ in first }) }
        for column in properties { PostgresSchema.bind(column, values, to: &query) }
        try enqueue(query)
        return Array(zip(unique, split))
    }
}
