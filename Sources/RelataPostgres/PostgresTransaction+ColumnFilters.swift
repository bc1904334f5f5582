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
        if filters.contains(where: { tables.catalog.propertyColumn(of: type, name: $0.column, kind: $0.value.kind) == nil }), !tables.isCurrent {
            try tables.refresh()
        }
        var conditions = ["($1::text IS NULL OR id > $1::text)"]
        var binds = PostgresBindings()
        binds.append(id)
        for filter in filters {
            // No column of the value's kind: no row holds such a value in one, every row passes.
            guard let number = tables.catalog.propertyColumn(of: type, name: filter.column, kind: filter.value.kind) else { continue }
            let column = "c\(number)"
            switch filter.value {
            case .bool(let flag): binds.append(flag)
            case .int(let number): binds.append(number)
            case .double(let number): binds.append(number)
            case .text(let text), .json(let text): binds.append(text)
            case .data(let data): binds.append(ByteBuffer(bytes: data))
            case .uint(let number): binds.append(String(number))
            }
            conditions.append(filter.condition(on: column, parameter: "$\(binds.count)", .postgres))
        }
        binds.append(Int64(max(0, limit)))
        let query = PostgresQuery(
            unsafeSQL: "SELECT * FROM \(schema.qualified(table)) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT $\(binds.count)",
            binds: binds
        )
        return try entityRows(query, type: type)
    }
}
