import Foundation
import GRDB
import RelataCore

extension SQLiteTransaction: ColumnFilteringReader {
    /// A page of `type`'s rows whose property columns pass `filters`, found with SQL. A row
    /// whose column is NULL passes (its value may be in the payload, or the row not upgraded
    /// yet): the query tests each entity in Swift after.
    ///
    /// When a filter's column leads one of the type's indexes, the page is two `SELECT`s in one
    /// statement, merged in id order: the rows passing that filter's test, then the rows whose
    /// column is NULL — each an index search (an index of a table without rowid holds the id
    /// after its columns, so an equality's rows come in id order), where one `WHERE … OR … IS
    /// NULL` makes SQLite collect both searches' rows in a temporary table and sort them.
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        guard let table = try tables.entityTable(of: type) else { return [] }
        if filters.contains(where: { tables.catalog.column(of: type, for: $0) == nil }), !tables.isCurrent {
            try tables.refresh()
        }
        let shape = SQLiteQueryPlans.Shape(.page(after: id != nil), type: type, catalog: tables.catalog, filters: filters, indexed: indexedColumns(of: type))
        let page = backend.queryPlans.page(shape) { pageQuery(of: type, table: table, matching: filters, after: id != nil) }
        var arguments: [(any DatabaseValueConvertible)?] = [id]
        for index in page.bound { arguments.append(Self.argument(filters[index].value)) }
        arguments.append(max(0, limit))
        var records: [EntityRecord] = []
        try entityRows(page.sql, arguments: StatementValues(arguments), type: type, table: table) { records.append($0) }
        return records
    }

    /// The SQL of ``fetchEntities(of:matching:after:limit:)``: its parameters are the last id
    /// (`?1`, NULL when there is none), the values of the filters tested in SQL, then the limit.
    private func pageQuery(of type: String, table: String, matching filters: [ColumnFilter], after: Bool) -> SQLiteQueryPlans.Page {
        var conditions = after ? ["id > ?1"] : []
        // Each filter tested in SQL, with its place among `filters`.
        var tested: [(index: Int, filter: ColumnFilter, column: String)] = []
        for (index, filter) in filters.enumerated() {
            if filter.test == .isNull {
                tables.catalog.nullTest(of: type, name: filter.column).map { conditions.append($0) }
                continue
            }
            // No column of the value's kind: no row holds such a value in one, every row passes.
            guard let column = tables.catalog.column(of: type, for: filter) else { continue }
            tested.append((index, filter, column))
        }
        let driver = indexedColumn(of: type, among: tested.map { ($0.filter, $0.column) })
        var driverTests: [String] = []
        for (number, (_, filter, column)) in tested.enumerated() {
            // Numbered, so a test that names its value twice binds it once.
            let parameter = "?\(number + 2)"
            if column == driver {
                driverTests.append(filter.test(on: column, parameter: parameter, .sqlite))
            } else {
                conditions.append(filter.condition(on: column, parameter: parameter, .sqlite))
            }
        }
        let bound = tested.map(\.index)
        let limit = "ORDER BY id LIMIT ?\(bound.count + 2)"
        func select(_ tests: [String]) -> String {
            "SELECT * FROM \(table)" + (tests.isEmpty ? "" : " WHERE " + tests.joined(separator: " AND "))
        }
        let sql = driver.map { "\(select(driverTests + conditions)) UNION ALL \(select(["\($0) IS NULL"] + conditions)) \(limit)" }
            ?? "\(select(conditions)) \(limit)"
        return SQLiteQueryPlans.Page(sql: sql, bound: bound)
    }

    /// The column of the first of `filters` whose test can search one of the SQL indexes made
    /// for `type`'s declarations (see ``SQLiteIndexes``): one its column leads.
    func indexedColumn(of type: String, among filters: [(filter: ColumnFilter, column: String)]) -> String? {
        let indexed = indexedColumns(of: type)
        return filters.first { $0.filter.searchesIndex && indexed.contains($0.column) }?.column
    }

    /// The columns the SQL indexes made for `type`'s declarations lead with.
    func indexedColumns(of type: String) -> Set<String> {
        backend.indexes.withLock { $0[type]?.leadColumns } ?? []
    }

    /// The first `count` rows of `type` passing `filters` in `order` (then by id), and the rows
    /// whose column for a filter or key is NULL: their ids (``fetchFirstIDs(of:matching:orderedBy:count:skipping:)``),
    /// then their rows by id. (A store reads those rows through its row cache instead: see
    /// `TransactionReader`.)
    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows? {
        try fetchFirstIDs(of: type, matching: filters, orderedBy: order, count: count, skipping: skipping)?.rows(of: type) { try fetchEntities($0) }
    }

    /// The ids of the first `count` rows of `type` passing `filters` in `order` (then by id), then
    /// those of the rows whose column for a filter or key is NULL or whose text key is not ASCII.
    /// The ordered rows' ids are sorted and paged without their rows (sorting whole rows, the
    /// payload with them, took half as long again: W3's Q4, 251 µs against 169 µs).
    ///
    /// One statement, one scan of the rows that may pass: they are sorted with those SQL cannot
    /// order first, and the first ``looseWindow`` of those plus the page are kept (SQLite's
    /// sorter keeps no more). Only when as many rows as the window are loose is the page read
    /// again, in two scans — the ordered rows, then every loose one — and that query read so
    /// from then on.
    func fetchFirstIDs(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityIDs? {
        guard let (query, arguments) = try firstRowsQuery(of: type, matching: filters, orderedBy: order, count: count, skipping: skipping) else {
            return try tables.entityTable(of: type) == nil ? FirstEntityIDs(ids: [], loose: 0, skipped: 0) : nil
        }
        if let oneScan = query.oneScan, !backend.manyLooseRows.withLock({ $0.contains(oneScan.shape) }) {
            if let first = try fetchFirstIDs(query, arguments: arguments, oneScan: oneScan, count: count, skipping: skipping) { return first }
            backend.manyLooseRows.withLock { _ = $0.insert(oneScan.shape) }
        }
        var ids: [String] = [], loose = 0
        try each(query.page, arguments: StatementValues(arguments), table: query.table, countingRows: false) { row, place in
            ids.append(try CheckedRow(row: row, place: place, path: backend.path).text(0, "id"))
            if row[1] as Int64? == 1 { loose += 1 }
        }
        guard loose > 0, skipping > 0 else { return FirstEntityIDs(ids: ids, loose: loose, skipped: skipping) }
        // Rows Swift must place among the first ones: the ids skipped are needed after all.
        var skipped: [String] = []
        let skippedArguments = Array(arguments.dropLast(2)) + [skipping]
        try each(query.skipped, arguments: StatementValues(skippedArguments), table: query.table, countingRows: false) { row, place in
            skipped.append(try CheckedRow(row: row, place: place, path: backend.path).text(0, "id"))
        }
        return FirstEntityIDs(ids: skipped + ids, loose: loose, skipped: 0)
    }

    /// How many rows SQL cannot order one scan of a first-rows query keeps beside the page.
    static let looseWindow = 64

    /// ``fetchFirstIDs(of:matching:orderedBy:count:skipping:)`` in one scan; `nil` when as many
    /// rows as ``looseWindow`` are loose (there may be more).
    private func fetchFirstIDs(
        _ query: FirstRowsQuery, arguments queryArguments: [(any DatabaseValueConvertible)?], oneScan: FirstRowsQuery.OneScan, count: Int, skipping: Int
    ) throws -> FirstEntityIDs? {
        let (page, pageOverflows) = max(0, skipping).addingReportingOverflow(max(0, count))
        let (limit, limitOverflows) = page.addingReportingOverflow(Self.looseWindow)
        // The window's loose rows (1) come first; then the ordered ones (0); then the rows the
        // driver's column leaves NULL (2), each found in its index.
        var arguments = Array(queryArguments.dropLast(2))
        arguments.append(pageOverflows || limitOverflows ? -1 : limit)
        var ordered: [String] = [], loose: [String] = [], windowed = 0
        try each(oneScan.sql, arguments: StatementValues(arguments), table: query.table, countingRows: false) { row, place in
            let id = try CheckedRow(row: row, place: place, path: backend.path).text(0, "id")
            switch row[1] as Int64? {
            case 0: ordered.append(id)
            case 1: windowed += 1; loose.append(id)
            default: loose.append(id)
            }
        }
        guard windowed < Self.looseWindow else { return nil }
        guard !loose.isEmpty else {
            return FirstEntityIDs(ids: Array(ordered.dropFirst(max(0, skipping)).prefix(max(0, count))), loose: 0, skipped: max(0, skipping))
        }
        // Rows Swift must place among the first ones: the ids skipped are kept.
        return FirstEntityIDs(ids: Array(ordered.prefix(pageOverflows ? Int.max : page)) + loose, loose: loose.count, skipped: 0)
    }

    /// The SQL of ``fetchFirstEntities(of:matching:orderedBy:count:skipping:)`` and of
    /// ``fetchFirstIDs(of:matching:orderedBy:count:skipping:)`` (kept by its shape, see
    /// ``SQLiteQueryPlans``), and its arguments: `nil` when the type has no table or its rows
    /// cannot be ordered by these keys in SQL.
    private func firstRowsQuery(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> (query: FirstRowsQuery, arguments: [(any DatabaseValueConvertible)?])? {
        guard let table = try tables.entityTable(of: type) else { return nil }
        // Every column of the type must be known: a key ordered by one column of several kinds
        // would miss the rows whose value is in another.
        if !tables.isCurrent { try tables.refresh() }
        let shape = SQLiteQueryPlans.Shape(.firstRows(order), type: type, catalog: tables.catalog, filters: filters, indexed: indexedColumns(of: type))
        guard let query = backend.queryPlans.firstRows(shape, { firstRowsQuery(of: type, table: table, matching: filters, orderedBy: order) }) else {
            return nil
        }
        // Every filter is tested in SQL (else there is no query): their values, in order.
        return (query, filters.map { Self.argument($0.value) } + [max(0, count), max(0, skipping)])
    }

    /// The SQL of a first-rows query; its parameters are the filters' values in order, then the
    /// count and the number to skip.
    private func firstRowsQuery(of type: String, table: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder]) -> FirstRowsQuery? {
        guard let plan = tables.catalog.firstRows(of: type, filters: filters, order: order) else { return nil }
        // A column not NULL says the row holds an entity (a row without one has every property
        // column NULL): the payload is not read to tell, unless no column is involved.
        var exact = (plan.involved.isEmpty ? ["length(payload) > 0"] : []) + plan.ordered(.sqlite), loose = ["length(payload) > 0"]
        // A filter's column that leads an index (and is involved, so its NULL rows are loose):
        // the loose rows are then two index searches — those whose column is NULL, and those
        // passing its tests that SQL cannot order otherwise — where one `WHERE` with the `OR` of
        // every reason reads every row of the type.
        let driver = indexedColumn(of: type, among: plan.filters)
        var driverTests: [String] = [], otherConditions: [String] = [], tests: [String] = [], otherTests: [String] = []
        for (index, (filter, column)) in plan.filters.enumerated() {
            let parameter = "?\(index + 1)"
            let test = filter.test(on: column, parameter: parameter, .sqlite)
            let condition = filter.condition(on: column, parameter: parameter, .sqlite)
            exact.append(test)
            loose.append(condition)
            tests.append(test)
            if column == driver { driverTests.append(test) } else { otherConditions.append(condition); otherTests.append(test) }
        }
        let keys = (plan.keys + ["id"]).joined(separator: ", ")
        let ordered = "SELECT id FROM \(table) WHERE \(exact.joined(separator: " AND ")) ORDER BY \(keys)"
        // The rows SQL cannot order as Swift does (a column NULL, a text key not ASCII), all of
        // them, for Swift to test and order (none for the first rows by id), marked by the last
        // column (ignored as a property: its name is no column's). Those SQL finds by the same
        // tests as the ordered rows are also found with them in one scan (`oneScan`): of the rows
        // passing those tests, the ordered ones are those SQL orders (a column a filter passes
        // with NULL is involved, which makes its row loose).
        let looseWheres: [String]
        var oneScan: (passing: String, ordered: String, nullDriver: String?)?
        if let driver {
            // With the driver's column NULL, its own filters pass and the row is loose; with it
            // not NULL, the row holds an entity and is loose for another reason, if any.
            var other = plan
            other.involved.removeAll { $0 == driver }
            let nullDriver = (["\(driver) IS NULL", "length(payload) > 0"] + otherConditions).joined(separator: " AND ")
            looseWheres = [nullDriver] + (other.leavesRowsToSwift ? [(driverTests + otherConditions + [other.unordered(.sqlite)]).joined(separator: " AND ")] : [])
            if other.leavesRowsToSwift {
                oneScan = ((driverTests + otherConditions).joined(separator: " AND "), (other.ordered(.sqlite) + otherTests).joined(separator: " AND "), nullDriver)
            }
        } else {
            looseWheres = [(loose + [plan.unordered(.sqlite)]).joined(separator: " AND ")]
            if plan.leavesRowsToSwift {
                oneScan = (loose.joined(separator: " AND "), (plan.ordered(.sqlite) + tests).joined(separator: " AND "), nil)
            }
        }
        // The filters' values are ?1…?n: the count and the number to skip follow them.
        let n = plan.filters.count
        let page = "SELECT id, 0 FROM (\(ordered) LIMIT ?\(n + 1) OFFSET ?\(n + 2))"
            + looseWheres.map { " UNION ALL SELECT id, 1 FROM \(table) WHERE \($0)" }.joined()
        return FirstRowsQuery(
            table: table, page: page, skipped: "\(ordered) LIMIT ?\(n + 1)",
            oneScan: oneScan.map { oneScan in
                let sorted = "SELECT id, CASE WHEN \(oneScan.ordered) THEN 0 ELSE 1 END AS loose FROM \(table) WHERE \(oneScan.passing) ORDER BY loose DESC, \(keys) LIMIT ?\(n + 1)"
                return FirstRowsQuery.OneScan(
                    shape: "\(table) \(keys)",
                    sql: "SELECT id, loose FROM (\(sorted))" + (oneScan.nullDriver.map { " UNION ALL SELECT id, 2 FROM \(table) WHERE \($0)" } ?? "")
                )
            }
        )
    }

    /// How many rows of `type` pass `filters` exactly (`count(*)` over the filters' columns, which
    /// their indexes answer without reading rows), and the rows holding an entity whose column
    /// for a filter is NULL: two statements.
    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount? {
        guard let table = try tables.entityTable(of: type) else { return ColumnCount(count: 0, untested: []) }
        if !tables.isCurrent { try tables.refresh() }
        guard let plan = tables.catalog.firstRows(of: type, filters: filters, order: []) else { return nil }
        // A row without an entity has every property column NULL: a column not NULL says the
        // row holds one, without reading the payload.
        var exact = plan.involved.map { "\($0) IS NOT NULL" }, loose = ["length(payload) > 0"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        for (filter, column) in plan.filters {
            arguments.append(Self.argument(filter.value))
            exact.append(filter.test(on: column, parameter: "?\(arguments.count)", .sqlite))
            loose.append(filter.condition(on: column, parameter: "?\(arguments.count)", .sqlite))
        }
        if exact.isEmpty { exact = ["length(payload) > 0"] }
        backend.rowReads.add()
        let count = try Int.fetchOne(
            db, sql: "SELECT count(*) FROM \(table) WHERE \(exact.joined(separator: " AND "))", arguments: StatementArguments(arguments)
        ) ?? 0
        var untested: [EntityRecord] = []
        if !plan.involved.isEmpty {
            loose.append("(" + plan.involved.map { "\($0) IS NULL" }.joined(separator: " OR ") + ")")
            try entityRows(
                "SELECT * FROM \(table) WHERE \(loose.joined(separator: " AND "))",
                arguments: StatementValues(arguments), type: type, table: table
            ) { untested.append($0) }
        }
        return ColumnCount(count: count, untested: untested)
    }

    /// A property column's value as SQLite binds it (see `SQLiteSchema.declaredType(_:)`).
    static func argument(_ value: PropertyValue) -> any DatabaseValueConvertible {
        switch value {
        case .bool(let flag): flag ? 1 : 0
        case .int(let number): number
        case .double(let number): number
        case .text(let text), .json(let text): text
        case .data(let data): data
        case .uint(let number): String(number)
        }
    }
}

extension SQLiteTransaction {
    /// What the full-text table of `type`'s `properties` holds for `tokens` (the rows holding
    /// those at the places `containing`); `nil` when the file has none (no write declared it
    /// yet, or the properties have no text column).
    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        guard let table = try tables.entityTable(of: type) else { return nil }
        if !tables.isCurrent { try tables.refresh() }
        guard let columns = tables.catalog.textColumns(of: type, properties: properties) else { return nil }
        let text = FullTextTable(entityTable: table, columns: columns)
        if !tables.foundFullTextTables.contains(text.name) {
            let exists = try Bool.fetchOne(
                db.cachedStatement(sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE name = ?)"), arguments: [text.name + "_stats"]
            )
            guard exists == true else { return nil }
            tables.foundFullTextTables.insert(text.name)
        }
        backend.rowReads.add()
        let candidates = try text.candidates(for: tokens, containing: containing, excluding: excluding, db)
        backend.fullTextRowsRead.add(candidates.rows.count)
        return candidates
    }
}
