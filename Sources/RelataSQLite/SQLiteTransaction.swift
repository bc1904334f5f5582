import Foundation
import GRDB
import RelataCore

/// Reads and writes a SQLite store inside one transaction of ``SQLiteBackend``.
struct SQLiteTransaction: StorageTransaction {
    let db: Database
    let backend: SQLiteBackend

    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try each("SELECT \(Self.entityColumns) FROM relata_entity", table: "relata_entity") { try entity(try entityRecord($0, $1)) }
        // Primary-key order: the links of one source come together.
        try each("SELECT \(Self.linkColumns) FROM relata_link", table: "relata_link") { try link(try linkRecord($0, $1)) }
        try each("SELECT \(Self.dynamicLinkColumns) FROM relata_dynamic_link", table: "relata_dynamic_link") {
            try dynamicLink(try dynamicLinkRecord($0, $1))
        }
        return try lastSequence()
    }

    // MARK: - Rows

    static let entityColumns = "type, id, payload, links"
    static let linkColumns = "type, relation, source, target, position, inverse_position"
    static let dynamicLinkColumns = "kind, source_type, source, target_type, target"

    /// Runs `sql` and hands each row to `body` with a description of where it is (its table and
    /// its place in the result), for errors about a row whose key cannot be read.
    func each(_ sql: String, arguments: StatementArguments = [], table: String, _ body: (Row, @escaping () -> String) throws -> Void) throws {
        let rows = try Row.fetchCursor(db, sql: sql, arguments: arguments)
        var index = 0
        while let row = try rows.next() {
            index += 1
            let n = index
            try body(row, { "\(table) row \(n)" })
        }
    }

    /// The entity row of `SELECT` ``entityColumns``, named by its key once the key is read.
    func entityRecord(_ row: Row, _ place: @escaping () -> String) throws -> EntityRecord {
        let key = CheckedRow(row: row, place: place, path: backend.path)
        let type = try key.text(0, "type"), id = try key.text(1, "id")
        let r = CheckedRow(row: row, place: { "relata_entity row (\(type), \"\(id)\")" }, path: backend.path)
        return EntityRecord(type: type, id: id, payload: try r.data(2, "payload"), links: try r.optionalData(3, "links"))
    }

    /// The link row of `SELECT` ``linkColumns``, named by its source once the source is read.
    func linkRecord(_ row: Row, _ place: @escaping () -> String) throws -> LinkRecord {
        let key = CheckedRow(row: row, place: place, path: backend.path)
        let (type, relation, source) = (try key.text(0, "type"), try key.text(1, "relation"), try key.text(2, "source"))
        let r = CheckedRow(row: row, place: { "relata_link row (\(type).\(relation), \"\(source)\")" }, path: backend.path)
        return LinkRecord(
            type: type, relation: relation, source: source, target: try r.text(3, "target"),
            position: try r.optionalText(4, "position"), inversePosition: try r.optionalText(5, "inverse_position")
        )
    }

    /// The dynamic link row of `SELECT` ``dynamicLinkColumns``.
    func dynamicLinkRecord(_ row: Row, _ place: @escaping () -> String) throws -> DynamicLinkRecord {
        let r = CheckedRow(row: row, place: place, path: backend.path)
        return DynamicLinkRecord(
            kind: try r.text(0, "kind"), sourceType: try r.text(1, "source_type"), source: try r.text(2, "source"),
            targetType: try r.text(3, "target_type"), target: try r.text(4, "target")
        )
    }

    // MARK: - The change log

    /// The sequence of the newest log record (`0` when there is none).
    func lastSequence() throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT max(seq) FROM relata_log") ?? 0
    }

    func logBounds() throws -> ChangeLogBounds {
        // Sequences have no gaps in SQLite (a rolled-back write gives its sequence back), so the
        // oldest record kept tells what was pruned.
        let row = try Row.fetchOne(db, sql: "SELECT max(seq), min(seq) FROM relata_log")
        let last = (try? row?.decode(Int64?.self, atIndex: 0)) ?? nil
        let oldest = (try? row?.decode(Int64?.self, atIndex: 1)) ?? nil
        return ChangeLogBounds(last: last ?? 0, pruned: (oldest ?? (last ?? 0) + 1) - 1)
    }

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
        var entries: [ChangeLogEntry] = []
        try each("SELECT seq, origin, record FROM relata_log WHERE seq > ? ORDER BY seq", arguments: [sequence], table: "relata_log") { row, _ in
            let seq = (try? row.decode(Int64.self, atIndex: 0)) ?? -1
            let r = CheckedRow(row: row, place: { "relata_log record \(seq)" }, path: backend.path)
            entries.append(ChangeLogEntry(sequence: seq, origin: try? r.text(1, "origin"), record: try? r.data(2, "record")))
        }
        return entries
    }

    // MARK: - Batched fetches

    /// `values` as the JSON array `json_each` reads: one statement takes a batch of any size.
    static func json(_ values: [[String]]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    }

    /// The keys of a batch (`json_each` of ``json(_:)``) joined to the link rows of each source:
    /// the keys drive the loop (`CROSS JOIN` keeps that order), one primary-key range each.
    static let linkSourcesJoin = """
        json_each(?) AS k CROSS JOIN relata_link l
        ON l.type = json_extract(k.value, '$[0]') AND l.relation = json_extract(k.value, '$[1]') AND l.source = json_extract(k.value, '$[2]')
        """

    static func json(_ sources: [LinkSourceKey]) throws -> String {
        try json(sources.map { [$0.type, $0.relation, $0.source] })
    }

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        guard !keys.isEmpty else { return [] }
        var records: [EntityRecord] = []
        // The keys drive the loop (CROSS JOIN keeps that order): one primary-key probe each.
        try each(
            """
            SELECT e.type, e.id, e.payload, e.links FROM json_each(?) AS k
            CROSS JOIN relata_entity e ON e.type = json_extract(k.value, '$[0]') AND e.id = json_extract(k.value, '$[1]')
            """,
            arguments: [try Self.json(keys.map { [$0.type, $0.id] })], table: "relata_entity"
        ) { records.append(try entityRecord($0, $1)) }
        return records
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        guard !sources.isEmpty else { return [] }
        var records: [LinkRecord] = []
        try each(
            "SELECT l.type, l.relation, l.source, l.target, l.position, l.inverse_position FROM \(Self.linkSourcesJoin) ORDER BY k.key, l.position, l.target",
            arguments: [try Self.json(sources)], table: "relata_link"
        ) { records.append(try linkRecord($0, $1)) }
        return records
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        var records: [EntityRecord] = []
        // Text compares bytewise (BINARY) in SQLite: the primary key's order.
        try each(
            "SELECT \(Self.entityColumns) FROM relata_entity WHERE type = ? AND (? IS NULL OR id > ?) ORDER BY id LIMIT ?",
            arguments: [type, id, id, max(0, limit)], table: "relata_entity"
        ) { records.append(try entityRecord($0, $1)) }
        return records
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        guard !sources.isEmpty else { return [:] }
        var counts: [LinkSourceKey: Int] = [:]
        // A range of the primary key per source: counted in the index, rows never read.
        try each("SELECT k.key, count(*) FROM \(Self.linkSourcesJoin) GROUP BY k.key", arguments: [try Self.json(sources)], table: "a count of relata_link") { row, place in
            let r = CheckedRow(row: row, place: place, path: backend.path)
            let index = try r.integer(0, "key"), count = try r.integer(1, "count")
            guard sources.indices.contains(index) else { return }
            counts[sources[index], default: 0] += count
        }
        return counts
    }

    func fetchEntityCount(of type: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM relata_entity WHERE type = ?", arguments: [type]) ?? 0
    }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        guard !links.isEmpty else { return [] }
        var records: [DynamicLinkRecord] = []
        try each(
            """
            SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM json_each(?) AS k
            CROSS JOIN relata_dynamic_link d ON d.kind = json_extract(k.value, '$[0]') AND d.source_type = json_extract(k.value, '$[1]')
                AND d.source = json_extract(k.value, '$[2]') AND d.target_type = json_extract(k.value, '$[3]') AND d.target = json_extract(k.value, '$[4]')
            """,
            arguments: [try Self.json(links.map { [$0.kind, $0.sourceType, $0.source, $0.targetType, $0.target] })], table: "relata_dynamic_link"
        ) { records.append(try dynamicLinkRecord($0, $1)) }
        return records
    }

    func persist(_ changes: StoreChanges, origin: String) throws -> Int64 {
        if !changes.deletedEntities.isEmpty {
            let statement = try BoundStatement(db, sql: "DELETE FROM relata_entity WHERE type = ? AND id = ?")
            for key in changes.deletedEntities { try statement.run(key.type, key.id) }
        }
        if !changes.upsertedEntities.isEmpty {
            let statement = try BoundStatement(db, sql: "INSERT OR REPLACE INTO relata_entity (type, id, payload, links) VALUES (?, ?, ?, ?)")
            for record in changes.upsertedEntities {
                try statement.bind(1, record.type)
                try statement.bind(2, record.id)
                try statement.bind(3, record.payload)
                try statement.bind(4, record.links)
                try statement.step()
            }
        }
        if !changes.deletedLinks.isEmpty {
            let statement = try BoundStatement(db, sql: "DELETE FROM relata_link WHERE type = ? AND relation = ? AND source = ? AND target = ?")
            for key in changes.deletedLinks { try statement.run(key.type, key.relation, key.source, key.target) }
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
            let statement = try BoundStatement(
                db,
                sql: """
                    INSERT OR REPLACE INTO relata_link (type, relation, source, target, position, inverse_position)
                    VALUES (?, ?, ?, ?, ?, ?)
                    """
            )
            for r in changes.upsertedLinks {
                try statement.bind(1, r.type)
                try statement.bind(2, r.relation)
                try statement.bind(3, r.source)
                try statement.bind(4, r.target)
                try statement.bind(5, r.position)
                try statement.bind(6, r.inversePosition)
                try statement.step()
            }
        }
        let now = Date().timeIntervalSince1970
        try db.execute(
            sql: "INSERT INTO relata_log (origin, at, record) VALUES (?, ?, ?)",
            arguments: [origin, now, ChangeLogRecord(touching: changes).encoded()]
        )
        let sequence = db.lastInsertedRowID
        try prune(upTo: sequence, now: now)
        return sequence
    }

    /// Removes the records the retention no longer keeps: a prefix of the log, never a record in
    /// the middle (see `LogRetention`), so a store behind the oldest record kept knows it.
    private func prune(upTo sequence: Int64, now: TimeInterval) throws {
        let retention = backend.logRetention
        guard retention.prunes(at: sequence) else { return }
        let expired = try Int64.fetchOne(
            db, sql: "SELECT max(seq) FROM relata_log WHERE at < ?", arguments: [retention.cutoff(now: now)]
        )
        let bound = retention.pruneBound(last: sequence, newestExpired: expired)
        try db.execute(sql: "DELETE FROM relata_log WHERE seq <= ?", arguments: [bound])
    }
}
