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
    var schema: PostgresSchema { backend.tables }
    /// The typed tables this transaction reads and writes.
    private(set) var tables: TableSession!

    init(backend: PostgresBackend, connection: PostgresConnection, known: KnownCatalog) {
        self.backend = backend
        self.connection = connection
        tables = backend.tables.session(known: known) { [unowned self] query in try self.execute(query) }
    }

    /// Runs `query`, returning its rows. The statements ``enqueue(_:)`` sent before it are
    /// answered first, in the same round trip: the first of them that failed is thrown.
    ///
    /// - Parameter next: A statement sent right after `query`, in the same round trip, whose
    ///   failure is thrown after `query`'s (a write's `COMMIT`).
    @discardableResult
    func execute(_ query: PostgresQuery, then next: PostgresQuery? = nil) throws -> [PostgresRow] {
        // The store calls backends on its writer queue, never on Swift's cooperative pool: waiting
        // for the event loop here blocks nothing else.
        backend.statements.add()
        let answer = connection.query(query, logger: backend.logger)
        let following = next.map { connection.query($0, logger: backend.logger) }
        try settle()
        let rows = try answer.answer(from: connection).rows
        _ = try following?.answer(from: connection)
        return rows
    }

    /// Waits for the statements sent without waiting, in the order they were sent, keeping the
    /// rows of reads sent ahead; throws the first failure.
    private func settle() throws {
        guard !unanswered.isEmpty else { return }
        let earlier = unanswered
        unanswered = []
        for statement in earlier {
            let rows = try statement.answer.answer(from: connection).rows
            statement.read?.rows = rows
        }
    }

    /// Statements sent by ``enqueue(_:)`` and ``prefetch(_:)`` whose answers no one waited for
    /// yet (a read sent ahead keeps its rows in `read`).
    private var unanswered: [(answer: EventLoopFuture<PostgresQueryResult>, read: SentRead?)] = []

    /// Sends `query`, a statement whose rows are not needed (a write's rows), without waiting:
    /// the next ``execute(_:)`` waits for its answer first and throws its failure — the
    /// statements of a write travel with its log record.
    func enqueue(_ query: PostgresQuery) {
        unanswered.append((connection.query(query, logger: backend.logger), nil))
    }

    /// A read sent ahead (``prefetch(_:)``): the keys it asked for, and its rows once answered.
    final class SentRead {
        let keys: Set<String>
        var rows: [PostgresRow]?

        init(keys: Set<String>) {
            self.keys = keys
        }
    }

    /// Reads sent ahead of entity rows, by type, and of lists' last sources or links, by type
    /// and relation; each answers the one fetch that asks for a subset of its keys.
    private var sentEntities: [String: SentRead] = [:]
    private var sentLastSources: [[String]: SentRead] = [:]
    private var sentLastLinks: [[String]: SentRead] = [:]

    /// Sends `query`, a read sent ahead for `keys`, without waiting.
    private func send(_ query: PostgresQuery, ahead keys: Set<String>) -> SentRead {
        let read = SentRead(keys: keys)
        unanswered.append((connection.query(query, logger: backend.logger), read))
        return read
    }

    /// The rows of `read`, once the statements sent before it are answered (their first failure
    /// is thrown); `nil` when it does not hold every key of `keys`.
    private func rows(of read: SentRead?, covering keys: [String]) throws -> [PostgresRow]? {
        guard let read, keys.allSatisfy(read.keys.contains) else { return nil }
        if read.rows == nil { try settle() }
        return read.rows
    }

    /// Sends the reads of `reads` now, all at once (one round trip): ``fetchEntities(_:)``,
    /// ``fetchLastSources(of:)`` and ``fetchLastLinks(of:)`` answer from them.
    func prefetch(_ reads: PlannedReads) {
        var sent = false
        for (type, keys) in reads.entities.groupedInOrder(by: \.type) {
            guard let table = try? tables.entityTable(of: type) else { continue }
            sentEntities[type] = send(entitiesQuery(table, ids: keys.map(\.id)), ahead: Set(keys.map(\.id)))
            sent = true
        }
        for (name, keys) in reads.lastSources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard let query = try? lastSourcesQuery(type: name[0], relation: name[1], targets: keys.map(\.target)) else { continue }
            sentLastSources[name] = send(query, ahead: Set(keys.map(\.target)))
            sent = true
        }
        for (name, keys) in reads.lastLinks.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard let query = try? lastLinksQuery(type: name[0], relation: name[1], sources: keys.map(\.source)) else { continue }
            sentLastLinks[name] = send(query, ahead: Set(keys.map(\.source)))
            sent = true
        }
        // The reads that take them answer without a round trip of their own: one for all.
        if sent { backend.statements.add() }
    }

    /// Sends `query` without waiting for its answer (nor counting it as a round trip): for a
    /// statement whose outcome the caller does not need, such as the end of a read-only
    /// transaction.
    func send(_ query: PostgresQuery) {
        _ = connection.query(query, logger: backend.logger)
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
        try tables.refresh()
        for (type, table) in tables.catalog.entityTypes {
            for record in try entityRows(PostgresQuery(unsafeSQL: "SELECT * FROM \(schema.qualified(table))"), type: type) { try entity(record) }
        }
        for (type, relation, table) in tables.catalog.linkRelations {
            for row in try execute(PostgresQuery(unsafeSQL: "SELECT \(Self.linkColumns) FROM \(schema.qualified(table)) ORDER BY source")) {
                try link(try Self.linkRecord(type, relation, row))
            }
        }
        for row in try execute(PostgresQuery(unsafeSQL: "SELECT kind, source_type, source, target_type, target FROM \(schema.dynamicLink)")) {
            try dynamicLink(try Self.dynamicLinkRecord(row))
        }
        return sequence
    }

    func lastSequence() throws -> Int64 {
        try execute(PostgresQuery(unsafeSQL: "SELECT COALESCE(pg_catalog.max(seq), 0)::int8 FROM \(schema.log)")).first?.decode(Int64.self) ?? 0
    }

    func logBounds() throws -> ChangeLogBounds {
        if let bounds = prefetchedBounds {
            prefetchedBounds = nil
            return bounds
        }
        return try bounds(from: try execute(boundsQuery).first)
    }

    /// The log's bounds as ``begin(_:begun:lockKey:)`` read them with the transaction's start, for the
    /// first ``logBounds()`` (until the transaction writes).
    private var prefetchedBounds: ChangeLogBounds?

    /// The query of the log's bounds. Sequences have gaps (a rolled-back write consumes one), so
    /// the log's oldest record does not tell what was pruned: writers keep the highest pruned
    /// sequence in relata_meta.
    private var boundsQuery: PostgresQuery {
        PostgresQuery(
            unsafeSQL: """
                SELECT (SELECT COALESCE(pg_catalog.max(seq), 0)::int8 FROM \(schema.log)),
                       (SELECT COALESCE(pg_catalog.max(value::int8), 0)::int8 FROM \(schema.meta) WHERE key = 'pruned')
                """
        )
    }

    private func bounds(from state: PostgresRow?) throws -> ChangeLogBounds {
        guard let state else { return ChangeLogBounds(last: 0, pruned: 0) }
        let (last, pruned) = try state.decode((Int64, Int64).self)
        let bounds = try ChangeLogBounds(checkedLast: last, pruned: pruned, place: "schema \(schema.schema)")
        tables.seenSequence = bounds.last
        return bounds
    }

    /// Begins the transaction with `begin`, under the writers' lock `lockKey` for a write (waited
    /// for up to the connection's lock_timeout, the busy timeout), and reads the log's bounds —
    /// which every transaction of a store asks first — in one round trip: `begin` is sent
    /// without waiting (``enqueue(_:)``), and the read answers after it, throwing the first
    /// failure. A write's lock and bounds are one statement (`relata_write_start`: the bounds read
    /// once the lock is held).
    ///
    /// - Parameter begun: The transaction's `BEGIN`, when it was sent ahead: waited for here
    ///   instead of sending `begin`.
    func begin(_ begin: String, begun: EventLoopFuture<PostgresQueryResult>? = nil, lockKey: Int64?) throws {
        if let begun {
            unanswered.append((begun, nil))
        } else {
            enqueue(PostgresQuery(unsafeSQL: begin))
        }
        if let lockKey {
            var start = PostgresQuery(unsafeSQL: "SELECT last, pruned FROM \(schema.writeStartFunction)($1)")
            start.binds.append(lockKey)
            prefetchedBounds = try bounds(from: try execute(start).first)
        } else {
            prefetchedBounds = try bounds(from: try execute(boundsQuery).first)
        }
        startSequence = prefetchedBounds?.last
    }

    /// The log's newest sequence when the transaction began.
    private var startSequence: Int64?
    /// Whether ``persistLast(_:record:origin:)`` committed the transaction.
    private(set) var isCommitted = false

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
        var query = PostgresQuery(unsafeSQL: "SELECT seq, origin, record FROM \(schema.log) WHERE seq > $1 ORDER BY seq")
        query.binds.append(sequence)
        return try execute(query).map { row in
            let columns = row.makeRandomAccess()
            let seq = (try? columns[0].decode(Int64.self)) ?? -1
            let origin = try? columns[1].decode(String.self)
            let record = (try? columns[2].decode(ByteBuffer.self)).map { Data(buffer: $0) }
            return ChangeLogEntry(sequence: seq, origin: origin, record: record)
        }
    }

    static let linkColumns = "source, target, position, inverse"

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        var records: [EntityRecord] = []
        for (type, keys) in keys.groupedInOrder(by: \.type) {
            let ids = keys.map(\.id)
            if let rows = try rows(of: sentEntities.removeValue(forKey: type), covering: ids) {
                let asked = Set(ids)
                records += try entityRecords(rows, type: type).filter { asked.contains($0.id) }
                continue
            }
            guard let table = try tables.entityTable(of: type) else { continue }
            records += try entityRows(entitiesQuery(table, ids: ids), type: type)
        }
        return records
    }

    /// The entity rows of `ids` in `table`.
    private func entitiesQuery(_ table: String, ids: [String]) -> PostgresQuery {
        var query = PostgresQuery(unsafeSQL: "SELECT * FROM \(schema.qualified(table)) WHERE id = ANY($1::text[])")
        query.binds.append(ids)
        return query
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            var query = PostgresQuery(
                unsafeSQL: """
                    SELECT l.source, l.target, l.position, l.inverse FROM \(schema.qualified(table)) l
                    JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(source, n) ON l.source = k.source
                    ORDER BY k.n, l.position NULLS FIRST, l.target
                    """
            )
            query.binds.append(keys.map(\.source))
            records += try execute(query).map { try Self.linkRecord(name[0], name[1], $0) }
        }
        return records
    }

    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        guard case .links(let table)? = try tables.relationTable(of: source.type, relation: source.relation) else { return [] }
        // The order index (source, position NULLS FIRST, target), walked from either end.
        return try rows(
            "SELECT source, target, position, inverse FROM \(schema.qualified(table)) WHERE source = $1", key: source.source,
            order: ["position", "target"], page: page, type: source.type, relation: source.relation
        )
    }

    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        let (type, relation) = (target.type, target.relation)
        switch try tables.relationTable(of: type, relation: relation) {
        case .links(let table):
            // The target index (target, inverse NULLS FIRST, source).
            return try rows(
                "SELECT source, target, position, inverse FROM \(schema.qualified(table)) WHERE target = $1", key: target.target,
                order: ["inverse", "source"], page: page, type: type, relation: relation
            )
        case .column(let column, let table):
            // The to-one column's index (target, inverse NULLS FIRST, id).
            return try rows(
            "SELECT id, \(column.target), NULL::text, \(column.inverse) FROM \(schema.qualified(table)) WHERE \(column.target) = $1", key: target.target,
                order: [column.inverse, "id"], page: page, type: type, relation: relation
            )
        case nil:
            return []
        }
    }

    /// The link rows `select` gives for `key` (its `$1`) in `page` of them, ordered by `order`:
    /// a nullable column (NULLs first, as SQLite orders them) and a column that is never NULL,
    /// the order of their index, which a page from the end walks backwards.
    private func rows(_ select: String, key: String, order: [String], page: ListPage, type: String, relation: String) throws -> [LinkRecord] {
        var query: PostgresQuery
        if case .last(let n) = page {
            query = PostgresQuery(unsafeSQL: "\(select) ORDER BY \(order[0]) DESC NULLS LAST, \(order[1]) DESC LIMIT $2")
            query.binds.append(key)
            query.binds.append(Int64(max(0, n)))
        } else {
            let offsets = page.offsets(in: Int.max)
            query = PostgresQuery(unsafeSQL: "\(select) ORDER BY \(order[0]) NULLS FIRST, \(order[1]) LIMIT $2 OFFSET $3")
            query.binds.append(key)
            query.binds.append(Int64(offsets.count))
            query.binds.append(Int64(offsets.lowerBound))
        }
        let records = try execute(query).map { try Self.linkRecord(type, relation, $0) }
        if case .last = page { return records.reversed() }
        return records
    }

    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let asked = keys.map(\.source)
            if let rows = try rows(of: sentLastLinks.removeValue(forKey: name), covering: asked) {
                let wanted = Set(asked)
                records += try rows.map { try Self.linkRecord(name[0], name[1], $0) }.filter { wanted.contains($0.source) }
                continue
            }
            guard let query = try lastLinksQuery(type: name[0], relation: name[1], sources: asked) else { continue }
            records += try execute(query).map { try Self.linkRecord(name[0], name[1], $0) }
        }
        return records
    }

    /// The last link of each of `sources`' lists through `type`'s `relation`, the order index
    /// walked backwards; `nil` when the relation has no link table.
    private func lastLinksQuery(type: String, relation: String, sources: [String]) throws -> PostgresQuery? {
        guard case .links(let table)? = try tables.relationTable(of: type, relation: relation) else { return nil }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT l.source, l.target, l.position, l.inverse FROM pg_catalog.unnest($1::text[]) AS k(source)
                CROSS JOIN LATERAL (SELECT source, target, position, inverse FROM \(schema.qualified(table)) WHERE source = k.source
                ORDER BY position DESC NULLS LAST, target DESC LIMIT 1) l
                """
        )
        query.binds.append(Array(Set(sources)))
        return query
    }

    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let (type, relation) = (name[0], name[1])
            let asked = keys.map(\.target)
            if let rows = try rows(of: sentLastSources.removeValue(forKey: name), covering: asked) {
                let wanted = Set(asked)
                records += try rows.map { try Self.linkRecord(type, relation, $0) }.filter { wanted.contains($0.target) }
                continue
            }
            guard let query = try lastSourcesQuery(type: type, relation: relation, targets: asked) else { continue }
            records += try execute(query).map { try Self.linkRecord(type, relation, $0) }
        }
        return records
    }

    /// The last source of each of `targets`' lists through `type`'s `relation`, the index walked
    /// backwards; `nil` when the relation has no table yet.
    private func lastSourcesQuery(type: String, relation: String, targets: [String]) throws -> PostgresQuery? {
        let select: String
        switch try tables.relationTable(of: type, relation: relation) {
        case .links(let table):
            select = """
                SELECT source, target, position, inverse FROM \(schema.qualified(table)) WHERE target = k.target
                ORDER BY inverse DESC NULLS LAST, source DESC LIMIT 1
                """
        case .column(let column, let table):
            select = """
                SELECT id, \(column.target), NULL::text, \(column.inverse) FROM \(schema.qualified(table)) WHERE \(column.target) = k.target
                ORDER BY \(column.inverse) DESC NULLS LAST, id DESC LIMIT 1
                """
        case nil:
            return nil
        }
        var query = PostgresQuery(unsafeSQL: "SELECT l.* FROM pg_catalog.unnest($1::text[]) AS k(target) CROSS JOIN LATERAL (\(select)) l")
        query.binds.append(Array(Set(targets)))
        return query
    }

    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let (type, relation) = (name[0], name[1])
            var query: PostgresQuery
            switch try tables.relationTable(of: type, relation: relation) {
            case .links(let table):
                query = PostgresQuery(
                    unsafeSQL: """
                        SELECT l.source, l.target, l.position, l.inverse FROM \(schema.qualified(table)) l
                        JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(target, n) ON l.target = k.target
                        ORDER BY k.n, l.inverse NULLS FIRST, l.source
                        """
                )
            case .column(let column, let table):
                query = PostgresQuery(
                    unsafeSQL: """
                        SELECT e.id, e.\(column.target), NULL::text, e.\(column.inverse) FROM \(schema.qualified(table)) e
                        JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(target, n) ON e.\(column.target) = k.target
                        ORDER BY k.n, e.\(column.inverse) NULLS FIRST, e.id
                        """
                )
            case nil:
                continue
            }
            query.binds.append(keys.map(\.target))
            records += try execute(query).map { try Self.linkRecord(type, relation, $0) }
        }
        return records
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        guard let table = try tables.entityTable(of: type) else { return [] }
        // The id column compares bytewise (COLLATE "C"), as SQLite's does: the primary key's order.
        var query = PostgresQuery(
            unsafeSQL: "SELECT * FROM \(schema.qualified(table)) WHERE $1::text IS NULL OR id > $1::text ORDER BY id LIMIT $2"
        )
        query.binds.append(id)
        query.binds.append(Int64(max(0, limit)))
        return try entityRows(query, type: type)
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        var counts: [LinkSourceKey: Int] = [:]
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            try count(in: schema.qualified(table), column: "source", keys.map(\.source)) { counts[keys[$0], default: 0] += $1 }
        }
        return counts
    }

    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] {
        var counts: [LinkTargetKey: Int] = [:]
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            switch try tables.relationTable(of: name[0], relation: name[1]) {
            case .links(let table):
                try count(in: schema.qualified(table), column: "target", keys.map(\.target)) { counts[keys[$0], default: 0] += $1 }
            case .column(let column, let table):
                try count(in: schema.qualified(table), column: column.target, keys.map(\.target)) { counts[keys[$0], default: 0] += $1 }
            case nil:
                break
            }
        }
        return counts
    }

    /// Counts the rows of `table` whose `column` is each of `values` (on its index), handing each
    /// count to `body` with the index of its value.
    private func count(in table: String, column: String, _ values: [String], _ body: (Int, Int) -> Void) throws {
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT k.n, pg_catalog.count(*)::int8 FROM \(table) t
                JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(value, n) ON t.\(column) = k.value GROUP BY k.n
                """
        )
        query.binds.append(values)
        for row in try execute(query) {
            let (n, count) = try row.decode((Int64, Int64).self)
            let index = Int(n) - 1
            if values.indices.contains(index) { body(index, Int(count)) }
        }
    }

    func fetchEntityCount(of type: String) throws -> Int {
        guard try tables.entityTable(of: type) != nil, let number = tables.catalog.entityNumber(of: type) else { return 0 }
        var query = PostgresQuery(unsafeSQL: "SELECT count FROM \(schema.count) WHERE number = $1")
        query.binds.append(number)
        return Int(try execute(query).first?.decode(Int64.self) ?? 0)
    }

    func inventory() throws -> StorageInventory {
        try tables.refresh()
        var inventory = tables.catalog.inventory
        let query = PostgresQuery(
            unsafeSQL: "SELECT kind, source_type, target_type, pg_catalog.count(*) FROM \(schema.dynamicLink) GROUP BY kind, source_type, target_type"
        )
        for row in try execute(query) {
            let (kind, sourceType, targetType, count) = try row.decode((String, String, String, Int64).self)
            inventory.dynamicLinkGroups.append(.init(kind: kind, sourceType: sourceType, targetType: targetType, count: Int(count)))
        }
        return inventory
    }

    func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int {
        let sql: String
        if relation.isToMany {
            guard let table = try tables.linkTable(of: relation.type, relation: relation.relation) else { return 0 }
            sql = "SELECT pg_catalog.count(*) FROM \(schema.qualified(table))"
        } else {
            guard let column = try tables.toOneColumn(of: relation.type, relation: relation.relation),
                let table = try tables.entityTable(of: relation.type)
            else { return 0 }
            sql = "SELECT pg_catalog.count(*) FROM \(schema.qualified(table)) WHERE \(column.target) IS NOT NULL"
        }
        return Int(try execute(PostgresQuery(unsafeSQL: sql)).first?.decode(Int64.self) ?? 0)
    }

    func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        guard !links.isEmpty else { return [] }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM \(schema.dynamicLink) d
                JOIN ROWS FROM (\(PostgresRowWriter.unnest(Array(repeating: "text", count: 5)))) AS k(kind, source_type, source, target_type, target)
                ON d.kind = k.kind AND d.source_type = k.source_type AND d.source = k.source AND d.target_type = k.target_type AND d.target = k.target
                """
        )
        for column in Self.columns(links) { query.binds.append(column) }
        return try execute(query).map(Self.dynamicLinkRecord)
    }

    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
        guard !ends.isEmpty else { return [] }
        // Each end by the index of its side; UNION leaves a link between two of them once.
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM \(schema.dynamicLink) d
                JOIN ROWS FROM (\(PostgresRowWriter.unnest(["text", "text"]))) AS k(type, id) ON d.source_type = k.type AND d.source = k.id
                UNION
                SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM \(schema.dynamicLink) d
                JOIN ROWS FROM (\(PostgresRowWriter.unnest(["text", "text"]))) AS k(type, id) ON d.target_type = k.type AND d.target = k.id
                """
        )
        query.binds.append(ends.map(\.type))
        query.binds.append(ends.map(\.id))
        return try execute(query).map(Self.dynamicLinkRecord)
    }

    func holdsDynamicLinks() throws -> Bool {
        try execute(PostgresQuery(unsafeSQL: "SELECT EXISTS (SELECT 1 FROM \(schema.dynamicLink))")).first?.decode(Bool.self) ?? true
    }

    /// The rows of `query`, a `SELECT *` of `type`'s entity table, as records: their to-one links
    /// found by ``EntityRowLayout`` (every column the table has now, so one another process added
    /// is never missed).
    func entityRows(_ query: PostgresQuery, type: String) throws -> [EntityRecord] {
        try entityRecords(try execute(query), type: type)
    }

    /// The entity rows of `type` in `rows`, each `SELECT *` of its table.
    func entityRecords(_ rows: [PostgresRow], type: String) throws -> [EntityRecord] {
        var layout: EntityRowLayout?
        return try rows.map { row in try entityRecord(row.makeRandomAccess(), from: 0, type: type, layout: &layout) }
    }

    /// The entity row of `type` in `cells` from column `offset` on (`id`, `payload`, then the
    /// to-one columns of `SELECT *`); `layout` is worked out from the first row and kept.
    func entityRecord(_ cells: PostgresRandomAccessRow, from offset: Int, type: String, layout: inout EntityRowLayout?) throws -> EntityRecord {
        if layout == nil { layout = try EntityRowLayout(type: type, columnNames: cells.dropFirst(offset).map(\.columnName), tables: tables) }
        let toOne = try layout!.links { try cells[offset + $0].decode(String?.self) }
        let id = try cells[offset].decode(String.self)
        let updatedAt = try layout!.updatedAt { try cells[offset + $0].decode(Double?.self) }
        let rest = Data(buffer: try cells[offset + 1].decode(ByteBuffer.self))
        return try layout!.record(type: type, id: id, rest: rest, toOne: toOne, updatedAt: updatedAt) { slot in
            try PostgresSchema.property(cells[offset + slot.index], slot.kind, type: type, name: slot.name)
        }
    }

    /// The link row of `SELECT` ``linkColumns``.
    static func linkRecord(_ type: String, _ relation: String, _ row: PostgresRow) throws -> LinkRecord {
        let (source, target, position, inverse) = try row.decode((String, String, String?, String?).self)
        return LinkRecord(type: type, relation: relation, source: source, target: target, position: position, inversePosition: inverse)
    }

    /// A link row of version 1's `relata_link` (`SELECT type, relation, source, target, position, inverse_position`).
    static func legacyLinkRecord(_ row: PostgresRow) throws -> LinkRecord {
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

    func holdsIndexes(_ indexes: [String: [StoredIndex]]) throws -> Bool {
        guard let held = try PostgresIndexes(transaction: self).held(indexes) else { return false }
        backend.indexes.withLock { $0.merge(held) { _, held in held } }
        return true
    }

    func keepIndexes(_ indexes: [String: [StoredIndex]]) throws {
        let synced = try PostgresIndexes(transaction: self).sync(indexes, synced: backend.indexes.withLock { $0 })
        backend.indexes.withLock { $0 = synced }
    }

    func persist(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
        let sequence = try send(changes, record: record, origin: origin, committing: false)
        let retention = backend.configuration.logRetention
        if retention.prunes(at: sequence) { try prune(retention, last: sequence) }
        return sequence
    }

    /// The rows, the log record and the commit in one round trip — except for a commit that
    /// prunes the log (about one in 32, judged from the sequence the transaction began at: the
    /// next one but for gaps), which reads and writes after its record and commits as usual.
    func persistLast(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
        guard let start = startSequence, !backend.configuration.logRetention.prunes(at: start + 1) else {
            return try persist(changes, record: record, origin: origin)
        }
        let sequence = try send(changes, record: record, origin: origin, committing: true)
        isCommitted = true
        return sequence
    }

    /// Sends `changes`' rows and their log `record` — and, when `committing`, the `COMMIT` after
    /// them, in the same round trip — and returns the record's sequence.
    private func send(_ changes: StoreChanges, record: ChangeLogRecord, origin: String, committing: Bool) throws -> Int64 {
        prefetchedBounds = nil
        // Reads sent ahead are as of before these rows.
        sentEntities = [:]
        sentLastSources = [:]
        sentLastLinks = [:]
        let written = try PostgresRowWriter(schema: schema, tables: tables, enqueue: { self.enqueue($0) }).write(changes)
        // A type whose declarations changed since this backend last looked (rare: the check is a
        // comparison per type).
        let synced = backend.indexes.withLock { $0 }
        if changes.indexes.contains(where: { synced[$0.key] != $0.value }) { try keepIndexes(changes.indexes) }
        try PostgresIndexes(transaction: self).keepFullText(changes, rows: written, synced: backend.indexes.withLock { $0 })
        // The log record, and a hint for the other stores' listeners (sent when this transaction
        // commits: the sequence and origin, never data), in one round trip.
        backend.ownOrigin.withLock { $0 = origin }
        var insert = PostgresQuery(
            unsafeSQL: """
                WITH record AS (INSERT INTO \(schema.log) (origin, at, record) VALUES ($1, $2, $3) RETURNING seq)
                SELECT record.seq FROM record, LATERAL pg_catalog.pg_notify($4, record.seq::text || ' ' || $1)
                """
        )
        insert.binds.append(origin)
        let now = Date().timeIntervalSince1970
        insert.binds.append(now)
        // The commit this one follows: read under the write lock (by the store's catch-up, or now).
        let previous = try tables.newestKnownCommit ?? lastSequence()
        insert.binds.append(ByteBuffer(bytes: StoredChangeLogRecord(record, after: previous).encoded()))
        insert.binds.append(schema.channel)
        // Committing: PostgreSQL answers a COMMIT after a failed statement with ROLLBACK, so
        // the record's answer (or an earlier row's failure) tells whether it committed.
        let rows = try execute(insert, then: committing ? PostgresQuery(unsafeSQL: "COMMIT") : nil)
        guard let sequence = try rows.first?.decode(Int64.self) else {
            throw RelataError(code: .storageFailed, entityType: "Store", message: "the change log gave no sequence")
        }
        tables.madeSequence = sequence
        return sequence
    }

    /// Removes the log records `retention` lets go, `last` being the newest.
    private func prune(_ retention: LogRetention, last sequence: Int64) throws {
        let now = Date().timeIntervalSince1970
        // A prefix only (see LogRetention): the records before the first one not expired, or by
        // count (read from the oldest: the records expired since the last pruning, and one).
        var unexpired = PostgresQuery(unsafeSQL: "SELECT seq FROM \(schema.log) WHERE at >= $1 ORDER BY seq LIMIT 1")
        unexpired.binds.append(retention.cutoff(now: now))
        let firstUnexpired = try execute(unexpired).first?.decode(Int64.self)
        let bound = retention.pruneBound(last: sequence, firstUnexpired: firstUnexpired)
        var prune = PostgresQuery(unsafeSQL: "DELETE FROM \(schema.log) WHERE seq <= $1")
        prune.binds.append(bound)
        try execute(prune)
        var mark = PostgresQuery(
            unsafeSQL: """
                INSERT INTO \(schema.meta) (key, value) VALUES ('pruned', $1) ON CONFLICT (key)
                DO UPDATE SET value = GREATEST(\(schema.meta).value::int8, EXCLUDED.value::int8)::text
                """
        )
        mark.binds.append("\(max(0, bound))")
        try execute(mark)
    }
}
