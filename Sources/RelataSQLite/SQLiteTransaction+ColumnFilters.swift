import Foundation
import GRDB
import RelataCore

extension SQLiteTransaction: ColumnFilteringReader {
    /// A page of `type`'s rows whose property columns pass `filters`, found with SQL. A row
    /// whose column is NULL passes (its value may be in the payload, or the row not upgraded
    /// yet): the query tests each entity in Swift after.
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        guard let table = try tables.entityTable(of: type) else { return [] }
        if filters.contains(where: { tables.catalog.propertyColumn(of: type, name: $0.column, kind: $0.value.kind) == nil }), !tables.isCurrent {
            try tables.refresh()
        }
        var conditions = ["(?1 IS NULL OR id > ?1)"]
        var arguments: [(any DatabaseValueConvertible)?] = [id]
        for filter in filters {
            // No column of the value's kind: no row holds such a value in one, every row passes.
            guard let number = tables.catalog.propertyColumn(of: type, name: filter.column, kind: filter.value.kind) else { continue }
            let column = "c\(number)"
            let value: any DatabaseValueConvertible =
                switch filter.value {
                case .bool(let flag): flag ? 1 : 0
                case .int(let number): number
                case .double(let number): number
                case .text(let text): text
                case .data(let data): data
                case .uint(let number): String(number)
                case .json(let text): text
                }
            // Numbered, so a test that names its value twice binds it once.
            arguments.append(value)
            conditions.append(filter.condition(on: column, parameter: "?\(arguments.count)", .sqlite))
        }
        arguments.append(max(0, limit))
        var records: [EntityRecord] = []
        try entityRows(
            "SELECT * FROM \(table) WHERE \(conditions.joined(separator: " AND ")) ORDER BY id LIMIT ?\(arguments.count)",
            arguments: StatementArguments(arguments), type: type, table: table
        ) { records.append($0) }
        return records
    }
}
