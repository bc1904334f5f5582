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

    func changes(since sequence: Int64) throws -> CommittedChanges? {
        let last = try lastSequence()
        guard last > sequence else { return nil }
        var changes = CommittedChanges(sequence: last)
        let oldest = try Int64.fetchOne(db, sql: "SELECT min(seq) FROM relata_log") ?? 0
        guard oldest <= sequence + 1 else {
            changes.needsReload = true
            return changes
        }
        let path = backend.path
        let records = try Row.fetchCursor(db, sql: "SELECT seq, origin, record FROM relata_log WHERE seq > ? ORDER BY seq", arguments: [sequence])
        while let row = try records.next() {
            let seq = (try? row.decode(Int64.self, atIndex: 0)) ?? -1
            let r = CheckedRow(row: row, place: { "relata_log record \(seq)" }, path: path)
            // A damaged record (no origin, bytes that do not decode) cannot say what its commit
            // touched: the rows themselves are the truth, so the store loads them all again.
            guard let origin = try? r.text(1, "origin"), let record = try? ChangeLogRecord(decoding: try r.data(2, "record")) else {
                return CommittedChanges.reload(at: last)
            }
            changes.origins.append(origin)
            changes.touched.formUnion(record)
        }
        let entity = try db.cachedStatement(sql: "SELECT payload, links FROM relata_entity WHERE type = ? AND id = ?")
        for key in Set(changes.touched.entities) {
            if let row = try Row.fetchOne(entity, arguments: [key.type, key.id]) {
                let r = CheckedRow(row: row, place: { "relata_entity row (\(key.type), \"\(key.id)\")" }, path: path)
                changes.entities.append(EntityRecord(type: key.type, id: key.id, payload: try r.data(0, "payload"), links: try r.optionalData(1, "links")))
            }
        }
        let links = try db.cachedStatement(
            sql: "SELECT target, position, inverse_position FROM relata_link WHERE type = ? AND relation = ? AND source = ?"
        )
        for key in Set(changes.touched.linkSources) {
            let rows = try Row.fetchCursor(links, arguments: [key.type, key.relation, key.source])
            while let row = try rows.next() {
                let r = CheckedRow(row: row, place: { "relata_link row (\(key.type).\(key.relation), \"\(key.source)\")" }, path: path)
                changes.links.append(
                    LinkRecord(
                        type: key.type, relation: key.relation, source: key.source, target: try r.text(0, "target"),
                        position: try r.optionalText(1, "position"), inversePosition: try r.optionalText(2, "inverse_position")
                    )
                )
            }
        }
        let dynamic = try db.cachedStatement(
            sql: "SELECT 1 FROM relata_dynamic_link WHERE kind = ? AND source_type = ? AND source = ? AND target_type = ? AND target = ?"
        )
        for record in Set(changes.touched.dynamicLinks) {
            let arguments: StatementArguments = [record.kind, record.sourceType, record.source, record.targetType, record.target]
            if try Row.fetchOne(dynamic, arguments: arguments) != nil { changes.dynamicLinks.append(record) }
        }
        return changes
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
