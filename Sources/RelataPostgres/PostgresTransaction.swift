import Foundation
import NIOCore
import PostgresNIO
import RelataCore

/// Reads and writes a PostgreSQL store inside one transaction of ``PostgresBackend``: each call
/// runs its statements on the backend's connection and waits for them (the store's writer queue
/// may block).
final class PostgresTransaction: StorageTransaction {
    let backend: PostgresBackend
    /// The connection the transaction runs on, the same for all of it.
    let connection: PostgresConnection
    var tables: PostgresSchema { backend.tables }

    init(backend: PostgresBackend, connection: PostgresConnection) {
        self.backend = backend
        self.connection = connection
    }

    /// Runs `query`, returning its rows.
    @discardableResult
    func execute(_ query: PostgresQuery) throws -> [PostgresRow] {
        // The store calls backends on its writer queue, never on Swift's cooperative pool: waiting
        // for the event loop here blocks nothing else.
        backend.statements.add()
        return try connection.query(query, logger: backend.logger).answer(from: connection).rows
    }

    func mapped(_ error: any Error, doing action: String) -> RelataError {
        PostgresBackend.map(error, place: backend.place, doing: action)
    }

    /// What the store's closure threw passes on as it is; the driver's errors (PostgresNIO's, and
    /// SwiftNIO's for the connection under it) become `RelataError`s.
    func passedOn(_ error: any Error, doing action: String) -> any Error {
        if error is PostgresConnectionLost { return mapped(error, doing: action) }
        let module = String(reflecting: type(of: error)).prefix { $0 != "." }
        return ["PostgresNIO", "NIOCore", "NIOPosix"].contains(module) ? mapped(error, doing: action) : error
    }

    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        let sequence = try lastSequence()
        for row in try execute(PostgresQuery(unsafeSQL: "SELECT type, id, payload, links FROM \(tables.entity)")) {
            try entity(try Self.entityRecord(row))
        }
        let links = try execute(
            PostgresQuery(
                unsafeSQL: "SELECT type, relation, source, target, position, inverse_position FROM \(tables.link) ORDER BY type, relation, source"
            )
        )
        for row in links {
            try link(try Self.linkRecord(row))
        }
        for row in try execute(PostgresQuery(unsafeSQL: "SELECT kind, source_type, source, target_type, target FROM \(tables.dynamicLink)")) {
            try dynamicLink(try Self.dynamicLinkRecord(row))
        }
        return sequence
    }

    func lastSequence() throws -> Int64 {
        try execute(PostgresQuery(unsafeSQL: "SELECT COALESCE(pg_catalog.max(seq), 0)::int8 FROM \(tables.log)")).first?.decode(Int64.self) ?? 0
    }

    func logBounds() throws -> ChangeLogBounds {
        // Sequences have gaps (a rolled-back write consumes one), so the log's oldest record does
        // not tell what was pruned: writers keep the highest pruned sequence in relata_meta.
        let state = try execute(
            PostgresQuery(
                unsafeSQL: """
                    SELECT (SELECT COALESCE(pg_catalog.max(seq), 0)::int8 FROM \(tables.log)),
                           (SELECT COALESCE(pg_catalog.max(value::int8), 0)::int8 FROM \(tables.meta) WHERE key = 'pruned')
                    """
            )
        ).first
        guard let state else { return ChangeLogBounds(last: 0, pruned: 0) }
        let (last, pruned) = try state.decode((Int64, Int64).self)
        return ChangeLogBounds(last: last, pruned: pruned)
    }

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
        var query = PostgresQuery(unsafeSQL: "SELECT seq, origin, record FROM \(tables.log) WHERE seq > $1 ORDER BY seq")
        query.binds.append(sequence)
        return try execute(query).map { row in
            let columns = row.makeRandomAccess()
            let seq = (try? columns[0].decode(Int64.self)) ?? -1
            let origin = try? columns[1].decode(String.self)
            let record = (try? columns[2].decode(ByteBuffer.self)).map { Data(buffer: $0) }
            return ChangeLogEntry(sequence: seq, origin: origin, record: record)
        }
    }

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        guard !keys.isEmpty else { return [] }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT e.type, e.id, e.payload, e.links FROM \(tables.entity) e
                JOIN ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[])) AS k(type, id) ON e.type = k.type AND e.id = k.id
                """
        )
        query.binds.append(keys.map(\.type))
        query.binds.append(keys.map(\.id))
        return try execute(query).map(Self.entityRecord)
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        guard !sources.isEmpty else { return [] }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT l.type, l.relation, l.source, l.target, l.position, l.inverse_position FROM \(tables.link) l
                JOIN ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[])) WITH ORDINALITY AS k(type, relation, source, n)
                ON l.type = k.type AND l.relation = k.relation AND l.source = k.source
                ORDER BY k.n, l.position COLLATE "C" NULLS FIRST, l.target COLLATE "C"
                """
        )
        query.binds.append(sources.map(\.type))
        query.binds.append(sources.map(\.relation))
        query.binds.append(sources.map(\.source))
        return try execute(query).map(Self.linkRecord)
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        // COLLATE "C": ids ordered by their bytes, as SQLite orders them.
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT type, id, payload, links FROM \(tables.entity) WHERE type = $1 AND ($2::text IS NULL OR id COLLATE "C" > $2::text)
                ORDER BY id COLLATE "C" LIMIT $3
                """
        )
        query.binds.append(type)
        query.binds.append(id)
        query.binds.append(Int64(max(0, limit)))
        return try execute(query).map(Self.entityRecord)
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        guard !sources.isEmpty else { return [:] }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT k.n, pg_catalog.count(*)::int8 FROM \(tables.link) l
                JOIN ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[])) WITH ORDINALITY AS k(type, relation, source, n)
                ON l.type = k.type AND l.relation = k.relation AND l.source = k.source
                GROUP BY k.n
                """
        )
        query.binds.append(sources.map(\.type))
        query.binds.append(sources.map(\.relation))
        query.binds.append(sources.map(\.source))
        var counts: [LinkSourceKey: Int] = [:]
        for row in try execute(query) {
            let (n, count) = try row.decode((Int64, Int64).self)
            let index = Int(n) - 1
            guard sources.indices.contains(index) else { continue }
            counts[sources[index], default: 0] += Int(count)
        }
        return counts
    }

    func fetchEntityCount(of type: String) throws -> Int {
        var query = PostgresQuery(unsafeSQL: "SELECT pg_catalog.count(*)::int8 FROM \(tables.entity) WHERE type = $1")
        query.binds.append(type)
        return Int(try execute(query).first?.decode(Int64.self) ?? 0)
    }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        guard !links.isEmpty else { return [] }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM \(tables.dynamicLink) d
                JOIN ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::text[]), pg_catalog.unnest($5::text[])) AS k(kind, source_type, source, target_type, target)
                ON d.kind = k.kind AND d.source_type = k.source_type AND d.source = k.source AND d.target_type = k.target_type AND d.target = k.target
                """
        )
        for column in Self.columns(links) { query.binds.append(column) }
        return try execute(query).map(Self.dynamicLinkRecord)
    }

    /// The entity row of `SELECT type, id, payload, links`.
    static func entityRecord(_ row: PostgresRow) throws -> EntityRecord {
        let (type, id, payload, links) = try row.decode((String, String, ByteBuffer, ByteBuffer?).self)
        return EntityRecord(type: type, id: id, payload: Data(buffer: payload), links: links.map { Data(buffer: $0) })
    }

    /// The link row of `SELECT type, relation, source, target, position, inverse_position`.
    static func linkRecord(_ row: PostgresRow) throws -> LinkRecord {
        let (type, relation, source, target, position, inverse) = try row.decode((String, String, String, String, String?, String?).self)
        return LinkRecord(type: type, relation: relation, source: source, target: target, position: position, inversePosition: inverse)
    }

    /// The dynamic link row of `SELECT kind, source_type, source, target_type, target`.
    static func dynamicLinkRecord(_ row: PostgresRow) throws -> DynamicLinkRecord {
        let (kind, sourceType, source, targetType, target) = try row.decode((String, String, String, String, String).self)
        return DynamicLinkRecord(kind: kind, sourceType: sourceType, source: source, targetType: targetType, target: target)
    }

    static func columns(_ links: [DynamicLinkRecord]) -> [[String]] {
        [links.map(\.kind), links.map(\.sourceType), links.map(\.source), links.map(\.targetType), links.map(\.target)]
    }

    func persist(_ changes: StoreChanges, origin: String) throws -> Int64 {
        if !changes.deletedEntities.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: "DELETE FROM \(tables.entity) e USING ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[])) AS k(type, id) WHERE e.type = k.type AND e.id = k.id"
            )
            query.binds.append(changes.deletedEntities.map(\.type))
            query.binds.append(changes.deletedEntities.map(\.id))
            try execute(query)
        }
        if !changes.upsertedEntities.isEmpty {
            // One row per key (the last wins), as `ON CONFLICT DO UPDATE` needs.
            var rows: [EntityKey: EntityRecord] = [:]
            for record in changes.upsertedEntities { rows[EntityKey(type: record.type, id: record.id)] = record }
            let records = Array(rows.values)
            var query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(tables.entity) (type, id, payload, links)
                    SELECT type, id, payload, NULLIF(links, ''::bytea) FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::bytea[]), pg_catalog.unnest($4::bytea[]))
                    AS k(type, id, payload, links)
                    ON CONFLICT (type, id) DO UPDATE SET payload = EXCLUDED.payload, links = EXCLUDED.links
                    """
            )
            query.binds.append(records.map(\.type))
            query.binds.append(records.map(\.id))
            query.binds.append(records.map { ByteBuffer(bytes: $0.payload) })
            query.binds.append(records.map { ByteBuffer(bytes: $0.links ?? Data()) })
            try execute(query)
        }
        if !changes.deletedLinks.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: """
                    DELETE FROM \(tables.link) l USING ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::text[])) AS k(type, relation, source, target)
                    WHERE l.type = k.type AND l.relation = k.relation AND l.source = k.source AND l.target = k.target
                    """
            )
            query.binds.append(changes.deletedLinks.map(\.type))
            query.binds.append(changes.deletedLinks.map(\.relation))
            query.binds.append(changes.deletedLinks.map(\.source))
            query.binds.append(changes.deletedLinks.map(\.target))
            try execute(query)
        }
        if !changes.deletedDynamicLinks.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: """
                    DELETE FROM \(tables.dynamicLink) d
                    USING ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::text[]), pg_catalog.unnest($5::text[])) AS k(kind, source_type, source, target_type, target)
                    WHERE d.kind = k.kind AND d.source_type = k.source_type AND d.source = k.source AND d.target_type = k.target_type AND d.target = k.target
                    """
            )
            for column in Self.columns(changes.deletedDynamicLinks) { query.binds.append(column) }
            try execute(query)
        }
        if !changes.insertedDynamicLinks.isEmpty {
            var query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(tables.dynamicLink) (kind, source_type, source, target_type, target)
                    SELECT * FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::text[]), pg_catalog.unnest($5::text[])) ON CONFLICT DO NOTHING
                    """
            )
            for column in Self.columns(changes.insertedDynamicLinks) { query.binds.append(column) }
            try execute(query)
        }
        if !changes.upsertedLinks.isEmpty {
            var rows: [LinkKey: LinkRecord] = [:]
            for record in changes.upsertedLinks { rows[record.key] = record }
            let records = Array(rows.values)
            var query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(tables.link) (type, relation, source, target, position, inverse_position)
                    SELECT type, relation, source, target, NULLIF(position, ''), NULLIF(inverse_position, '')
                    FROM ROWS FROM (pg_catalog.unnest($1::text[]), pg_catalog.unnest($2::text[]), pg_catalog.unnest($3::text[]), pg_catalog.unnest($4::text[]), pg_catalog.unnest($5::text[]), pg_catalog.unnest($6::text[]))
                    AS k(type, relation, source, target, position, inverse_position)
                    ON CONFLICT (type, relation, source, target)
                    DO UPDATE SET position = EXCLUDED.position, inverse_position = EXCLUDED.inverse_position
                    """
            )
            query.binds.append(records.map(\.type))
            query.binds.append(records.map(\.relation))
            query.binds.append(records.map(\.source))
            query.binds.append(records.map(\.target))
            query.binds.append(records.map { $0.position ?? "" })
            query.binds.append(records.map { $0.inversePosition ?? "" })
            try execute(query)
        }
        // The log record, and a hint for the other stores' listeners (sent when this transaction
        // commits: the sequence and origin, never data), in one round trip.
        backend.ownOrigin.withLock { $0 = origin }
        var insert = PostgresQuery(
            unsafeSQL: """
                WITH record AS (INSERT INTO \(tables.log) (origin, at, record) VALUES ($1, $2, $3) RETURNING seq)
                SELECT record.seq FROM record, LATERAL pg_catalog.pg_notify($4, record.seq::text || ' ' || $1)
                """
        )
        insert.binds.append(origin)
        let now = Date().timeIntervalSince1970
        insert.binds.append(now)
        insert.binds.append(ByteBuffer(bytes: ChangeLogRecord(touching: changes).encoded()))
        insert.binds.append(tables.channel)
        guard let sequence = try execute(insert).first?.decode(Int64.self) else {
            throw RelataError(code: .storageFailed, entityType: "Store", message: "the change log gave no sequence")
        }
        let retention = backend.configuration.logRetention
        if retention.prunes(at: sequence) {
            // A prefix only (see LogRetention): up to the newest expired record, or by count.
            var expired = PostgresQuery(unsafeSQL: "SELECT pg_catalog.max(seq) FROM \(tables.log) WHERE at < $1")
            expired.binds.append(retention.cutoff(now: now))
            let newestExpired = try execute(expired).first?.decode(Int64?.self) ?? nil
            let bound = retention.pruneBound(last: sequence, newestExpired: newestExpired)
            var prune = PostgresQuery(unsafeSQL: "DELETE FROM \(tables.log) WHERE seq <= $1")
            prune.binds.append(bound)
            try execute(prune)
            var mark = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO \(tables.meta) (key, value) VALUES ('pruned', $1) ON CONFLICT (key)
                    DO UPDATE SET value = GREATEST(\(tables.meta).value::int8, EXCLUDED.value::int8)::text
                    """
            )
            mark.binds.append("\(max(0, bound))")
            try execute(mark)
        }
        return sequence
    }
}
