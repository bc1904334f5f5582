import Foundation
import GRDB
import GRDBSQLite
import RelataCore

/// Reads and writes a SQLite store inside one transaction of ``SQLiteBackend``.
struct SQLiteTransaction: StorageTransaction {
    let db: Database
    let tables: TableSession
    let backend: SQLiteBackend
    /// The readers' connection a read transaction runs on (`nil` in a write).
    let reader: ReaderConnection?

    init(db: Database, backend: SQLiteBackend, known: KnownCatalog, reader: ReaderConnection? = nil) {
        self.db = db
        tables = SQLiteSchema.session(db, path: backend.path, known: known, reads: backend.catalogReads)
        self.backend = backend
        self.reader = reader
    }

    /// The commit token as of this read transaction (its connection's `PRAGMA data_version`);
    /// `nil` in a write.
    func commitToken() throws -> Int64? {
        try reader?.commitToken(db)
    }

    func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try tables.refresh()
        for (type, table) in tables.catalog.entityTypes {
            try entityRows("SELECT * FROM \(table)", type: type, table: table, entity)
        }
        for (type, relation, table) in tables.catalog.linkRelations {
            // Primary-key order: the links of one source come together.
            try each("SELECT \(Self.linkColumns) FROM \(table)", table: table) { try link(try linkRecord(type, relation, $0, $1)) }
        }
        try each("SELECT \(Self.dynamicLinkColumns) FROM relata_dynamic_link", table: "relata_dynamic_link") {
            try dynamicLink(try dynamicLinkRecord($0, $1))
        }
        return try lastSequence()
    }

    // MARK: - Rows

    static let linkColumns = "source, target, position, inverse"
    static let dynamicLinkColumns = "kind, source_type, source, target_type, target"

    /// Runs `sql` and hands each row to `body` with a description of where it is (its table and
    /// its place in the result), for errors about a row whose key cannot be read.
    ///
    /// Every statement is prepared once per connection and kept (reads by key run thousands of
    /// times; GRDB's statement authorizer, run at each preparation, was a fifth of a bulk write).
    /// A `SELECT *` of an entity table (`selectsEveryColumn`), whose to-one columns other
    /// connections add, is checked at its first row: SQLite prepares a kept statement again when
    /// the schema changed, but GRDB keeps the column names it first read and the column count of
    /// before the first step; when they differ from the columns the statement has now, the
    /// connection's kept statements are dropped and it runs prepared anew.
    func each(
        _ sql: String, arguments: StatementValues = [], table: String, selectsEveryColumn: Bool = false, countingRows: Bool = true,
        _ body: (StatementRow, @escaping () -> String) throws -> Void
    ) throws {
        try each(sql, arguments: arguments, table: table, selectsEveryColumn: selectsEveryColumn, countingRows: countingRows) { row, _, place in
            try body(row, place)
        }
    }

    /// ``each(_:arguments:table:selectsEveryColumn:_:)``, each row given with its statement
    /// (whose column names are current from the first row on).
    ///
    /// The statement is stepped through SQLite's C API (see ``StatementRow``), its arguments
    /// bound without GRDB's check of them against the statement: every statement run here is
    /// made by this package, its parameters numbered to match its arguments.
    ///
    /// `countingRows`: the rows are counted in the backend's `rowsRead` (rows of entities and
    /// links, not the ids of a page).
    func each(
        _ sql: String, arguments: StatementValues = [], table: String, selectsEveryColumn: Bool = false, countingRows: Bool = true,
        _ body: (StatementRow, Statement, @escaping () -> String) throws -> Void
    ) throws {
        backend.rowReads.add()
        attempts: for attempt in 0..<2 {
            let statement = try db.cachedStatement(sql: sql)
            let handle = statement.sqliteStatement
            // GRDB's reset throws the failure of the statement's last step, if it failed (a
            // damaged file): reset here first, whatever it reports.
            sqlite3_reset(handle)
            try arguments.bind(to: statement, in: db)
            defer { sqlite3_reset(handle) }
            let row = StatementRow(handle: handle)
            var index = 0
            while true {
                let code = sqlite3_step(handle)
                guard code == SQLITE_ROW else {
                    guard code == SQLITE_DONE else { throw DatabaseError(sqliteCode: code, on: db, sql: sql) }
                    return
                }
                // SQLite prepares again at the first step: the columns are known from here on.
                if index == 0, attempt == 0, selectsEveryColumn, !Self.hasCurrentColumns(statement) {
                    db.clearSchemaCache()
                    continue attempts
                }
                index += 1
                if countingRows { backend.rowsRead.add() }
                let n = index
                try body(row, statement, { "\(table) row \(n)" })
            }
        }
    }

    /// Whether the columns GRDB keeps for `statement` are those SQLite gives it now, in its
    /// current row: GRDB keeps the names it first read, and SQLite prepares the statement again
    /// at its first step if the schema changed (even for a statement that had returned no row
    /// before).
    static func hasCurrentColumns(_ statement: Statement) -> Bool {
        let names = statement.columnNames
        let handle = statement.sqliteStatement
        guard Int(sqlite3_column_count(handle)) == names.count else { return false }
        for index in names.indices {
            guard let name = sqlite3_column_name(handle, CInt(index)), names[index].withCString({ strcmp($0, name) == 0 }) else { return false }
        }
        return true
    }

    /// Runs `sql`, a `SELECT *` (or `e.*`) of `type`'s entity table, and hands each row to `body`
    /// as a record, its to-one links found by ``EntityRowLayout`` (every column the table has
    /// now, so one another connection added is never missed).
    func entityRows(_ sql: String, arguments: StatementValues = [], type: String, table: String, _ body: (EntityRecord) throws -> Void) throws {
        try entityRows(sql, arguments: arguments, type: type, table: table) { record, _ in try body(record) }
    }

    /// ``entityRows(_:arguments:type:table:_:)``, each record given with its row (for columns
    /// the statement adds after the table's).
    func entityRows(_ sql: String, arguments: StatementValues = [], type: String, table: String, _ body: (EntityRecord, StatementRow) throws -> Void) throws {
        var layout: (names: [String], slots: EntityRowLayout)?
        try each(sql, arguments: arguments, table: table, selectsEveryColumn: true) { row, statement, place in
            let id = try CheckedRow(row: row, place: place, path: backend.path).text(0, "id")
            let r = CheckedRow(row: row, place: { "the row of \(type) \"\(id)\"" }, path: backend.path)
            if layout == nil {
                // Current from the first row on (see `each`).
                let names = statement.columnNames
                let slots = try backend.rowLayouts.layout(of: type, sql: sql, columnNames: names) {
                    try EntityRowLayout(type: type, columnNames: names, tables: tables)
                }
                layout = (names, slots)
            }
            let names = layout!.names
            let toOne = try layout!.slots.links { index in try r.optionalText(index, names[index]) }
            let updatedAt = try layout!.slots.updatedAt { index in try r.optionalReal(index, TableCatalog.updatedAtColumn) }
            let record = try layout!.slots.record(type: type, id: id, rest: try r.data(1, "payload"), toOne: toOne, updatedAt: updatedAt) { slot in
                try r.property(slot.index, "\(type).\(slot.name)", slot.kind)
            }
            try body(record, row)
        }
    }

    /// The link row of `SELECT` ``linkColumns``, named by its source once the source is read.
    func linkRecord(_ type: String, _ relation: String, _ row: StatementRow, _ place: @escaping () -> String) throws -> LinkRecord {
        let source = try CheckedRow(row: row, place: place, path: backend.path).text(0, "source")
        let r = CheckedRow(row: row, place: { "the link of \(type).\(relation) of \"\(source)\"" }, path: backend.path)
        return LinkRecord(
            type: type, relation: relation, source: source, target: try r.text(1, "target"),
            position: try r.optionalText(2, "position"), inversePosition: try r.optionalText(3, "inverse")
        )
    }

    /// The to-one link of `SELECT id, <target column>, <inverse column>` from `type`'s entity
    /// rows, named by its source once the source is read.
    func toOneLinkRecord(_ type: String, _ relation: String, _ column: TableCatalog.Column, _ row: StatementRow, _ place: @escaping () -> String) throws -> LinkRecord {
        let source = try CheckedRow(row: row, place: place, path: backend.path).text(0, "id")
        let r = CheckedRow(row: row, place: { "the row of \(type) \"\(source)\"" }, path: backend.path)
        return LinkRecord(
            type: type, relation: relation, source: source, target: try r.text(1, column.target),
            position: nil, inversePosition: try r.optionalText(2, column.inverse)
        )
    }

    /// The dynamic link row of `SELECT` ``dynamicLinkColumns``.
    func dynamicLinkRecord(_ row: StatementRow, _ place: @escaping () -> String) throws -> DynamicLinkRecord {
        let r = CheckedRow(row: row, place: place, path: backend.path)
        return DynamicLinkRecord(
            kind: try r.text(0, "kind"), sourceType: try r.text(1, "source_type"), source: try r.text(2, "source"),
            targetType: try r.text(3, "target_type"), target: try r.text(4, "target")
        )
    }

    // MARK: - The change log

    /// The sequence of the newest log record (`0` when there is none).
    func lastSequence() throws -> Int64 {
        try Int64.fetchOne(db.cachedStatement(sql: "SELECT max(seq) FROM relata_log")) ?? 0
    }

    func logBounds() throws -> ChangeLogBounds {
        // Sequences have no gaps in SQLite (a rolled-back write gives its sequence back), so the
        // oldest record kept tells what was pruned.
        // One subquery per end: SQLite reads either from the index's end only when a query asks
        // for one of them alone (both in one SELECT scan the whole log).
        // Read through the C API: every read asks, and GRDB's row costs more than the statement.
        let ends = try BoundStatement(db, sql: "SELECT (SELECT max(seq) FROM relata_log), (SELECT min(seq) FROM relata_log)").integers(0, 1)
        let bounds = try ChangeLogBounds(newest: ends[0], oldest: ends[1], place: backend.path)
        tables.seenSequence = bounds.last
        return bounds
    }

    func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
        var entries: [ChangeLogEntry] = []
        backend.logReads.add()
        try each("SELECT seq, origin, record FROM relata_log WHERE seq > ? ORDER BY seq", arguments: [sequence], table: "relata_log") { row, _ in
            let seq = (try? row.decode(Int64.self, atIndex: 0)) ?? -1
            let r = CheckedRow(row: row, place: { "relata_log record \(seq)" }, path: backend.path)
            entries.append(ChangeLogEntry(sequence: seq, origin: try? r.text(1, "origin"), record: try? r.data(2, "record")))
        }
        return entries
    }

    // MARK: - Batched fetches

    /// `values` as the JSON array `json_each` reads: one statement takes a batch of any size.
    static func json(_ values: [String]) -> String {
        JSONArrayText.encode(values)
    }

    static func json(_ values: [[String]]) -> String {
        JSONArrayText.encode(values)
    }

    func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        var records: [EntityRecord] = []
        // One statement per type; the ids drive the loop (CROSS JOIN keeps that order), one
        // primary-key probe each.
        for (type, keys) in keys.groupedInOrder(by: \.type) {
            guard let table = try tables.entityTable(of: type) else { continue }
            if keys.count == 1 {
                // One id (a write's probe of the entity it saves): no JSON array to build and parse.
                try entityRows("SELECT * FROM \(table) WHERE id = ?", arguments: [keys[0].id], type: type, table: table) { records.append($0) }
                continue
            }
            try entityRows(
                "SELECT e.* FROM json_each(?) AS k CROSS JOIN \(table) e ON e.id = k.value", arguments: [Self.json(keys.map(\.id))], type: type, table: table
            ) { records.append($0) }
        }
        return records
    }

    func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            // The order index (source, position, target) gives each source's rows in order.
            try each(
                "SELECT l.source, l.target, l.position, l.inverse FROM json_each(?) AS k CROSS JOIN \(table) l ON l.source = k.value ORDER BY k.key, l.position, l.target",
                arguments: [Self.json(keys.map(\.source))], table: table
            ) { records.append(try linkRecord(name[0], name[1], $0, $1)) }
        }
        return records
    }

    func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        guard case .links(let table)? = try tables.relationTable(of: source.type, relation: source.relation) else { return [] }
        // The order index (source, position, target), walked from whichever end the page is at.
        return try rows(
            "SELECT source, target, position, inverse FROM \(table) WHERE source = ?", key: source.source,
            order: ["position", "target"], page: page, table: table
        ) { try linkRecord(source.type, source.relation, $0, $1) }
    }

    func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        let (type, relation) = (target.type, target.relation)
        switch try tables.relationTable(of: type, relation: relation) {
        case .links(let table):
            // The target index (target, inverse, source).
            return try rows(
                "SELECT source, target, position, inverse FROM \(table) WHERE target = ?", key: target.target,
                order: ["inverse", "source"], page: page, table: table
            ) { try linkRecord(type, relation, $0, $1) }
        case .column(let column, let table):
            // The to-one column's index (target, inverse, id).
            return try rows(
                "SELECT id, \(column.target), \(column.inverse) FROM \(table) WHERE \(column.target) = ?", key: target.target,
                order: [column.inverse, "id"], page: page, table: table
            ) { try toOneLinkRecord(type, relation, column, $0, $1) }
        case nil:
            return []
        }
    }

    /// The rows `select` gives for `key` (its one `?`) in `page` of them, ordered by `order`
    /// (columns, each ascending, a NULL first): a page from the end walks the index backwards.
    private func rows(
        _ select: String, key: String, order: [String], page: ListPage, table: String,
        _ record: (StatementRow, @escaping () -> String) throws -> LinkRecord
    ) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        let (sql, arguments): (String, StatementValues)
        if case .last(let n) = page {
            (sql, arguments) = ("\(select) ORDER BY \(order.map { "\($0) DESC" }.joined(separator: ", ")) LIMIT ?", [key, max(0, n)])
        } else {
            let offsets = page.offsets(in: Int.max)
            (sql, arguments) = ("\(select) ORDER BY \(order.joined(separator: ", ")) LIMIT ? OFFSET ?", [key, offsets.count, offsets.lowerBound])
        }
        try each(sql, arguments: arguments, table: table) { records.append(try record($0, $1)) }
        if case .last = page { records.reverse() }
        return records
    }

    func fetchLastLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            // Each source's last row, found by walking the order index backwards.
            try each(
                """
                SELECT l.source, l.target, l.position, l.inverse FROM json_each(?) AS k CROSS JOIN \(table) l
                ON l.source = k.value AND l.target = (SELECT target FROM \(table) WHERE source = k.value ORDER BY position DESC, target DESC LIMIT 1)
                """,
                arguments: [Self.json(Array(Set(keys.map(\.source))))], table: table
            ) { records.append(try linkRecord(name[0], name[1], $0, $1)) }
        }
        return records
    }

    func fetchLastSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let (type, relation) = (name[0], name[1])
            let ids = Self.json(Array(Set(keys.map(\.target))))
            switch try tables.relationTable(of: type, relation: relation) {
            case .links(let table):
                try each(
                    """
                    SELECT l.source, l.target, l.position, l.inverse FROM json_each(?) AS k CROSS JOIN \(table) l
                    ON l.target = k.value AND l.source = (SELECT source FROM \(table) WHERE target = k.value ORDER BY inverse DESC, source DESC LIMIT 1)
                    """,
                    arguments: [ids], table: table
                ) { records.append(try linkRecord(type, relation, $0, $1)) }
            case .column(let column, let table):
                try each(
                    """
                    SELECT e.id, e.\(column.target), e.\(column.inverse) FROM json_each(?) AS k CROSS JOIN \(table) e
                    ON e.id = (SELECT id FROM \(table) WHERE \(column.target) = k.value ORDER BY \(column.inverse) DESC, id DESC LIMIT 1)
                    """,
                    arguments: [ids], table: table
                ) { records.append(try toOneLinkRecord(type, relation, column, $0, $1)) }
            case nil:
                break
            }
        }
        return records
    }

    func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        var records: [LinkRecord] = []
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let (type, relation) = (name[0], name[1])
            let ids = Self.json(keys.map(\.target))
            switch try tables.relationTable(of: type, relation: relation) {
            case .links(let table):
                // The target index (target, inverse, source): each target's sources in order.
                try each(
                    "SELECT l.source, l.target, l.position, l.inverse FROM json_each(?) AS k CROSS JOIN \(table) l ON l.target = k.value ORDER BY k.key, l.inverse, l.source",
                    arguments: [ids], table: table
                ) { records.append(try linkRecord(type, relation, $0, $1)) }
            case .column(let column, let table):
                try each(
                    """
                    SELECT e.id, e.\(column.target), e.\(column.inverse) FROM json_each(?) AS k CROSS JOIN \(table) e ON e.\(column.target) = k.value
                    ORDER BY k.key, e.\(column.inverse), e.id
                    """,
                    arguments: [ids], table: table
                ) { records.append(try toOneLinkRecord(type, relation, column, $0, $1)) }
            case nil:
                break
            }
        }
        return records
    }

    func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        guard let table = try tables.entityTable(of: type) else { return [] }
        var records: [EntityRecord] = []
        // Text compares bytewise (BINARY) in SQLite: the primary key's order.
        try entityRows(
            "SELECT * FROM \(table) WHERE (? IS NULL OR id > ?) ORDER BY id LIMIT ?", arguments: [id, id, max(0, limit)], type: type, table: table
        ) { records.append($0) }
        return records
    }

    func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        var counts: [LinkSourceKey: Int] = [:]
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            // A range of the primary key per source: counted in the index, rows never read.
            try count("SELECT k.key, count(*) FROM json_each(?) AS k CROSS JOIN \(table) l ON l.source = k.value GROUP BY k.key", keys.map(\.source), table) { index, n in
                counts[keys[index], default: 0] += n
            }
        }
        return counts
    }

    func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] {
        var counts: [LinkTargetKey: Int] = [:]
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let sql: String, table: String
            switch try tables.relationTable(of: name[0], relation: name[1]) {
            case .links(let links):
                (sql, table) = ("SELECT k.key, count(*) FROM json_each(?) AS k CROSS JOIN \(links) l ON l.target = k.value GROUP BY k.key", links)
            case .column(let column, let entities):
                (sql, table) = ("SELECT k.key, count(*) FROM json_each(?) AS k CROSS JOIN \(entities) e ON e.\(column.target) = k.value GROUP BY k.key", entities)
            case nil:
                continue
            }
            try count(sql, keys.map(\.target), table) { index, n in counts[keys[index], default: 0] += n }
        }
        return counts
    }

    /// Runs a `SELECT k.key, count(*)` over the `json_each` of `values`, handing each count to
    /// `body` with the index of its value.
    private func count(_ sql: String, _ values: [String], _ table: String, _ body: (Int, Int) -> Void) throws {
        try each(sql, arguments: [Self.json(values)], table: "a count of \(table)") { row, place in
            let r = CheckedRow(row: row, place: place, path: backend.path)
            let index = try r.integer(0, "key"), count = try r.integer(1, "count")
            if values.indices.contains(index) { body(index, count) }
        }
    }

    func fetchEntityCount(of type: String) throws -> Int {
        guard try tables.entityTable(of: type) != nil, let number = tables.catalog.entityNumber(of: type) else { return 0 }
        let count = try Int.fetchOne(db, sql: "SELECT count FROM relata_count WHERE number = ?", arguments: [number]) ?? 0
        guard count >= 0 else {
            throw RelataError(code: .corruptedStore, entityType: type, message: "\(backend.path) is damaged: relata_count holds \(count) \(type) entities")
        }
        return count
    }

    func inventory() throws -> StorageInventory {
        try tables.refresh()
        var inventory = tables.catalog.inventory
        try each(
            "SELECT kind, source_type, target_type, count(*) FROM relata_dynamic_link GROUP BY kind, source_type, target_type",
            table: "relata_dynamic_link"
        ) { row, place in
            let r = CheckedRow(row: row, place: place, path: backend.path)
            inventory.dynamicLinkGroups.append(
                .init(kind: try r.text(0, "kind"), sourceType: try r.text(1, "source_type"), targetType: try r.text(2, "target_type"), count: try r.integer(3, "count"))
            )
        }
        return inventory
    }

    func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int {
        if relation.isToMany {
            guard let table = try tables.linkTable(of: relation.type, relation: relation.relation) else { return 0 }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0
        }
        guard let column = try tables.toOneColumn(of: relation.type, relation: relation.relation),
            let table = try tables.entityTable(of: relation.type)
        else { return 0 }
        return try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE \(column.target) IS NOT NULL") ?? 0
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
            arguments: [Self.json(links.map { [$0.kind, $0.sourceType, $0.source, $0.targetType, $0.target] })], table: "relata_dynamic_link"
        ) { records.append(try dynamicLinkRecord($0, $1)) }
        return records
    }

    func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
        guard !ends.isEmpty else { return [] }
        var records: [DynamicLinkRecord] = []
        // Each end by the index of its side; UNION leaves a link between two of them once.
        try each(
            """
            SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM json_each(?1) AS k
            CROSS JOIN relata_dynamic_link d ON d.source_type = json_extract(k.value, '$[0]') AND d.source = json_extract(k.value, '$[1]')
            UNION
            SELECT d.kind, d.source_type, d.source, d.target_type, d.target FROM json_each(?1) AS k
            CROSS JOIN relata_dynamic_link d ON d.target_type = json_extract(k.value, '$[0]') AND d.target = json_extract(k.value, '$[1]')
            """,
            arguments: [Self.json(ends.map { [$0.type, $0.id] })], table: "relata_dynamic_link"
        ) { records.append(try dynamicLinkRecord($0, $1)) }
        return records
    }

    func holdsDynamicLinks() throws -> Bool {
        try Bool.fetchOne(db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM relata_dynamic_link)")) ?? true
    }

    func holdsIndexes(_ indexes: [String: [StoredIndex]]) throws -> Bool {
        let synced = try SQLiteIndexes(db: db, tables: tables).held(indexes)
        guard let synced else { return false }
        backend.indexes.withLock { $0.merge(synced) { _, held in held } }
        return true
    }

    func keepIndexes(_ indexes: [String: [StoredIndex]]) throws {
        var changes = StoreChanges()
        changes.indexes = indexes
        var synced = backend.indexes.withLock { $0 }
        try SQLiteIndexes(db: db, tables: tables).sync(changes, synced: &synced)
        backend.indexes.withLock { [synced] in $0 = synced }
    }

    func persist(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
        try SQLiteRowWriter(db: db, tables: tables, backend: backend).write(changes)
        let now = Date().timeIntervalSince1970
        // The commit this one follows: read under the write lock (by the store's catch-up, or now).
        let previous = try tables.newestKnownCommit ?? lastSequence()
        // Numbered here, the one after `previous` (checked: a crafted file's last sequence may be
        // the greatest integer), so that no `AUTOINCREMENT` counter is written at every commit.
        guard previous < Int64.max else {
            throw RelataError(
                code: .corruptedStore, entityType: "Store",
                message: "\(backend.path): the change log's last record is numbered \(previous), after which no commit can be numbered"
            )
        }
        let sequence = previous + 1
        // (Bound straight through SQLite's C API: GRDB's `StatementArguments` were a sixth of persisting a point write.)
        let insert = try BoundStatement(db, sql: "INSERT INTO relata_log (seq, origin, at, record) VALUES (?, ?, ?, ?)")
        try insert.bind(1, PropertyValue.int(sequence))
        try insert.bind(2, origin)
        try insert.bind(3, PropertyValue.double(now))
        try insert.bind(4, StoredChangeLogRecord(record, after: previous).encoded())
        try insert.step()
        tables.madeSequence = sequence
        try prune(upTo: sequence, now: now)
        return sequence
    }

    /// Removes the records the retention no longer keeps: a prefix of the log, never a record in
    /// the middle (see `LogRetention`), so a store behind the oldest record kept knows it.
    private func prune(upTo sequence: Int64, now: TimeInterval) throws {
        let retention = backend.logRetention
        guard retention.prunes(at: sequence) else { return }
        // Read from the oldest record up to the first one not expired: the records that expired
        // since the last pruning, and one (the log keeps no index of times to write at every commit).
        let firstKept = try Int64.fetchOne(
            db, sql: "SELECT seq FROM relata_log WHERE at >= ? ORDER BY seq LIMIT 1", arguments: [retention.cutoff(now: now)]
        )
        let bound = retention.pruneBound(last: sequence, firstUnexpired: firstKept)
        try db.execute(sql: "DELETE FROM relata_log WHERE seq <= ?", arguments: [bound])
    }
}
