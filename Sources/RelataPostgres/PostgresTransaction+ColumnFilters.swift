import Foundation
import NIOCore
import PostgresNIO
import RelataCore

extension PostgresTransaction: ColumnFilteringReader {
    /// A page of `type`'s rows whose property columns pass `filters`, found with SQL. A row
    /// whose column is NULL passes (its value may be in the payload, or the row not upgraded
    /// yet): the query tests each entity in Swift after.
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        guard let table = try tables.entityTable(of: type) else { return [] }
        if filters.contains(where: { tables.catalog.column(of: type, for: $0) == nil }), !tables.isCurrent {
            try tables.refresh()
        }
        var conditions = ["($1::text IS NULL OR id > $1::text)"]
        var binds = PostgresBindings()
        binds.append(id)
        for filter in filters {
            if filter.test == .isNull {
                tables.catalog.nullTest(of: type, name: filter.column).map { conditions.append($0) }
                continue
            }
            // No column of the value's kind: no row holds such a value in one, every row passes.
            guard let column = tables.catalog.column(of: type, for: filter) else { continue }
            Self.bind(filter.value, to: &binds)
            conditions.append(filter.condition(on: column, parameter: "$\(binds.count)", .postgres))
        }
        binds.append(Int64(max(0, limit)))
        let query = PostgresQuery(
            unsafeSQL: "SELECT * FROM \(schema.qualified(table)) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT $\(binds.count)",
            binds: binds
        )
        return try entityRows(query, type: type)
    }

    /// The first `count` rows of `type` passing `filters` in `order` (then by id), and the rows
    /// whose column for a filter or key is NULL: one statement, two `SELECT`s.
    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows? {
        guard let table = try tables.entityTable(of: type) else { return FirstEntityRows(records: [], skipped: 0, isExact: true) }
        // Every column of the type must be known: a key ordered by one column of several kinds
        // would miss the rows whose value is in another.
        if !tables.isCurrent { try tables.refresh() }
        guard let plan = tables.catalog.firstRows(of: type, filters: filters, order: order) else { return nil }
        let entity = "pg_catalog.octet_length(payload) > 0"
        // A column not NULL says the row holds an entity (a row without one has every property
        // column NULL): the payload is not read to tell, unless no column is involved.
        var exact = (plan.involved.isEmpty ? [entity] : []) + plan.ordered(.postgres), loose = [entity]
        var binds = PostgresBindings()
        for (filter, column) in plan.filters {
            Self.bind(filter.value, to: &binds)
            exact.append(filter.test(on: column, parameter: "$\(binds.count)", .postgres))
            loose.append(filter.condition(on: column, parameter: "$\(binds.count)", .postgres))
        }
        binds.append(Int64(max(0, count)))
        binds.append(Int64(max(0, skipping)))
        // The rows SQL cannot order as Swift does (a column NULL, a text key not ASCII), all of
        // them, for Swift to test and order (none for the first rows by id), marked by the last
        // column (ignored as a property: its name is no column's).
        loose.append(plan.unordered(.postgres))
        let name = schema.qualified(table)
        let ordered = "FROM \(name) WHERE \(exact.joined(separator: " AND ")) ORDER BY \((plan.keys + ["id"]).joined(separator: ", "))"
        let query = PostgresQuery(
            unsafeSQL: """
                (SELECT *, false AS relata_loose \(ordered) LIMIT $\(binds.count - 1) OFFSET $\(binds.count))
                UNION ALL (SELECT *, true FROM \(name) WHERE \(loose.joined(separator: " AND ")))
                """,
            binds: binds
        )
        let rows = try execute(query)
        var layout: EntityRowLayout?
        var records: [EntityRecord] = [], looseRows = 0
        for row in rows {
            let cells = row.makeRandomAccess()
            records.append(try entityRecord(cells, from: 0, type: type, layout: &layout))
            if try cells[cells.count - 1].decode(Bool.self) { looseRows += 1 }
        }
        guard looseRows > 0, skipping > 0 else { return FirstEntityRows(records: records, skipped: skipping, isExact: looseRows == 0) }
        // Rows Swift must place among the first ones: the rows skipped are needed after all.
        var first = PostgresBindings()
        for (filter, _) in plan.filters { Self.bind(filter.value, to: &first) }
        first.append(Int64(skipping))
        let skipped = try entityRows(PostgresQuery(unsafeSQL: "SELECT * \(ordered) LIMIT $\(first.count)", binds: first), type: type)
        return FirstEntityRows(records: skipped + records, skipped: 0, isExact: false)
    }

    /// How many rows of `type` pass `filters` exactly (`count(*)` over the filters' columns), and
    /// the rows holding an entity whose column for a filter is NULL: two statements.
    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount? {
        guard let table = try tables.entityTable(of: type) else { return ColumnCount(count: 0, untested: []) }
        if !tables.isCurrent { try tables.refresh() }
        guard let plan = tables.catalog.firstRows(of: type, filters: filters, order: []) else { return nil }
        let entity = "pg_catalog.octet_length(payload) > 0"
        // A row without an entity has every property column NULL: a column not NULL says the
        // row holds one, without reading the payload.
        var exact = plan.involved.map { "\($0) IS NOT NULL" }, loose = [entity]
        var binds = PostgresBindings()
        for (filter, column) in plan.filters {
            Self.bind(filter.value, to: &binds)
            exact.append(filter.test(on: column, parameter: "$\(binds.count)", .postgres))
            loose.append(filter.condition(on: column, parameter: "$\(binds.count)", .postgres))
        }
        if exact.isEmpty { exact = [entity] }
        let name = schema.qualified(table)
        let counted = PostgresQuery(unsafeSQL: "SELECT pg_catalog.count(*) FROM \(name) WHERE \(exact.joined(separator: " AND "))", binds: binds)
        let count = Int(try execute(counted).first?.decode(Int64.self) ?? 0)
        guard !plan.involved.isEmpty else { return ColumnCount(count: count, untested: []) }
        loose.append("(" + plan.involved.map { "\($0) IS NULL" }.joined(separator: " OR ") + ")")
        let untested = try entityRows(PostgresQuery(unsafeSQL: "SELECT * FROM \(name) WHERE \(loose.joined(separator: " AND "))", binds: binds), type: type)
        return ColumnCount(count: count, untested: untested)
    }

    /// Binds a property column's value as PostgreSQL compares it with the column.
    static func bind(_ value: PropertyValue, to binds: inout PostgresBindings) {
        switch value {
        case .bool(let flag): binds.append(flag)
        case .int(let number): binds.append(number)
        case .double(let number): binds.append(number)
        case .text(let text), .json(let text): binds.append(text)
        case .data(let data): binds.append(ByteBuffer(bytes: data))
        case .uint(let number): binds.append(String(number))
        }
    }
}

extension PostgresTransaction {
    /// What the full-text table of `type`'s `properties` holds for `tokens` (the rows holding
    /// those at the places `containing`); `nil` when the schema has none (no write declared it
    /// yet, or the properties have no text column).
    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        guard let table = try tables.entityTable(of: type) else { return nil }
        if !tables.isCurrent { try tables.refresh() }
        guard let columns = tables.catalog.textColumns(of: type, properties: properties) else { return nil }
        let text = PostgresFullTextTable(entityTable: table, columns: columns)
        if !tables.foundFullTextTables.contains(text.name) {
            var exists = PostgresQuery(unsafeSQL: "SELECT pg_catalog.to_regclass($1) IS NOT NULL")
            // A table of an earlier version has no `_terms`: left to the next sync to make again.
            exists.binds.append(schema.qualified(text.name + "_terms"))
            guard try execute(exists).first?.decode(Bool.self) == true else { return nil }
            tables.foundFullTextTables.insert(text.name)
        }
        return try text.candidates(for: tokens, containing: containing, excluding: excluding, in: schema) { try execute($0) }
    }
}
