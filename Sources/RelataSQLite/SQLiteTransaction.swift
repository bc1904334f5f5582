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
        let path = backend.path
        let entities = try Row.fetchCursor(db, sql: "SELECT type, id, payload, links FROM relata_entity")
        var index = 0
        while let row = try entities.next() {
            index += 1
            let n = index
            let r = CheckedRow(row: row, place: { "relata_entity row \(n)" }, path: path)
            try entity(EntityRecord(type: try r.text(0, "type"), id: try r.text(1, "id"), payload: try r.data(2, "payload"), links: try r.optionalData(3, "links")))
        }
        // Primary-key order: the links of one source come together.
        let links = try Row.fetchCursor(db, sql: "SELECT type, relation, source, target, position, inverse_position FROM relata_link")
        index = 0
        while let row = try links.next() {
            index += 1
            let n = index
            let r = CheckedRow(row: row, place: { "relata_link row \(n)" }, path: path)
            try link(
                LinkRecord(
                    type: try r.text(0, "type"), relation: try r.text(1, "relation"), source: try r.text(2, "source"),
                    target: try r.text(3, "target"), position: try r.optionalText(4, "position"), inversePosition: try r.optionalText(5, "inverse_position")
                )
            )
        }
        let dynamicLinks = try Row.fetchCursor(db, sql: "SELECT kind, source_type, source, target_type, target FROM relata_dynamic_link")
        index = 0
        while let row = try dynamicLinks.next() {
            index += 1
            let n = index
            let r = CheckedRow(row: row, place: { "relata_dynamic_link row \(n)" }, path: path)
            try dynamicLink(
                DynamicLinkRecord(
                    kind: try r.text(0, "kind"), sourceType: try r.text(1, "source_type"), source: try r.text(2, "source"),
                    targetType: try r.text(3, "target_type"), target: try r.text(4, "target")
                )
            )
        }
        return try lastSequence()
    }

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
        let path = backend.path
        var entries: [ChangeLogEntry] = []
        let records = try Row.fetchCursor(db, sql: "SELECT seq, origin, record FROM relata_log WHERE seq > ? ORDER BY seq", arguments: [sequence])
        while let row = try records.next() {
            let seq = (try? row.decode(Int64.self, atIndex: 0)) ?? -1
            let r = CheckedRow(row: row, place: { "relata_log record \(seq)" }, path: path)
            entries.append(ChangeLogEntry(sequence: seq, origin: try? r.text(1, "origin"), record: try? r.data(2, "record")))
        }
        return entries
    }

    /// `values` as the JSON array `json_each` reads: one statement takes a batch of any size.
    static func json(_ values: [[String]]) throws -> String {
        String(decoding: try JSONEncoder().encode(values), as: UTF8.self)
    }

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        guard !keys.isEmpty else { return [] }
        let path = backend.path
        var records: [EntityRecord] = []
        // The keys drive the loop (CROSS JOIN keeps that order): one primary-key probe each.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT e.type, e.id, e.payload, e.links FROM json_each(?) AS k
                CROSS JOIN relata_entity e ON e.type = json_extract(k.value, '$[0]') AND e.id = json_extract(k.value, '$[1]')
                """,
            arguments: [try Self.json(keys.map { [$0.type, $0.id] })]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "relata_entity row of a batch" }, path: path)
            let type = try r.text(0, "type"), id = try r.text(1, "id")
            let named = CheckedRow(row: row, place: { "relata_entity row (\(type), \"\(id)\")" }, path: path)
            records.append(EntityRecord(type: type, id: id, payload: try named.data(2, "payload"), links: try named.optionalData(3, "links")))
        }
        return records
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        guard !sources.isEmpty else { return [] }
        let path = backend.path
        var records: [LinkRecord] = []
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.type, l.relation, l.source, l.target, l.position, l.inverse_position FROM json_each(?) AS k
                CROSS JOIN relata_link l ON l.type = json_extract(k.value, '$[0]') AND l.relation = json_extract(k.value, '$[1]') AND l.source = json_extract(k.value, '$[2]')
                ORDER BY k.key, l.position, l.target
                """,
            arguments: [try Self.json(sources.map { [$0.type, $0.relation, $0.source] })]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "relata_link row of a batch" }, path: path)
            let (type, relation, source) = (try r.text(0, "type"), try r.text(1, "relation"), try r.text(2, "source"))
            let named = CheckedRow(row: row, place: { "relata_link row (\(type).\(relation), \"\(source)\")" }, path: path)
            records.append(
                LinkRecord(
                    type: type, relation: relation, source: source, target: try named.text(3, "target"),
                    position: try named.optionalText(4, "position"), inversePosition: try named.optionalText(5, "inverse_position")
                )
            )
        }
        return records
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        let path = backend.path
        var records: [EntityRecord] = []
        // Text compares bytewise (BINARY) in SQLite: the primary key's order.
        let rows = try Row.fetchCursor(
            db,
            sql: "SELECT id, payload, links FROM relata_entity WHERE type = ? AND (? IS NULL OR id > ?) ORDER BY id LIMIT ?",
            arguments: [type, id, id, max(0, limit)]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "relata_entity row of a page of \(type)" }, path: path)
            let id = try r.text(0, "id")
            let named = CheckedRow(row: row, place: { "relata_entity row (\(type), \"\(id)\")" }, path: path)
            records.append(EntityRecord(type: type, id: id, payload: try named.data(1, "payload"), links: try named.optionalData(2, "links")))
        }
        return records
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        guard !sources.isEmpty else { return [:] }
        var counts: [LinkSourceKey: Int] = [:]
        // A range of the primary key per source: counted in the index, rows never read.
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT k.key, count(*) FROM json_each(?) AS k
                CROSS JOIN relata_link l ON l.type = json_extract(k.value, '$[0]') AND l.relation = json_extract(k.value, '$[1]') AND l.source = json_extract(k.value, '$[2]')
                GROUP BY k.key
                """,
            arguments: [try Self.json(sources.map { [$0.type, $0.relation, $0.source] })]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "a count of relata_link rows" }, path: backend.path)
            let index = try r.integer(0, "key"), count = try r.integer(1, "count")
            guard sources.indices.contains(index) else { continue }
            counts[sources[index], default: 0] += count
        }
        return counts
    }

    func fetchEntityCount(of type: String) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT count(*) FROM relata_entity WHERE type = ?", arguments: [type]) ?? 0
    }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        guard !links.isEmpty else { return [] }
        let path = backend.path
        var records: [DynamicLinkRecord] = []
        let rows = try Row.fetchCursor(
            db,
            sql: """
                SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM json_each(?) AS k
                CROSS JOIN relata_dynamic_link d ON d.kind = json_extract(k.value, '$[0]') AND d.source_type = json_extract(k.value, '$[1]')
                    AND d.source = json_extract(k.value, '$[2]') AND d.target_type = json_extract(k.value, '$[3]') AND d.target = json_extract(k.value, '$[4]')
                """,
            arguments: [try Self.json(links.map { [$0.kind, $0.sourceType, $0.source, $0.targetType, $0.target] })]
        )
        while let row = try rows.next() {
            let r = CheckedRow(row: row, place: { "relata_dynamic_link row of a batch" }, path: path)
            records.append(
                DynamicLinkRecord(
                    kind: try r.text(0, "kind"), sourceType: try r.text(1, "source_type"), source: try r.text(2, "source"),
                    targetType: try r.text(3, "target_type"), target: try r.text(4, "target")
                )
            )
        }
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
