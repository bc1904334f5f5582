/// The table of trigrams of one ``FullTextIndex`` in a store (SQLite's and PostgreSQL's), named
/// after its entity table and the text columns it indexes, in the declaration's order
/// (`e3_fts_c5_c6`), so the name alone says what it holds. Each backend adds how it makes, keeps
/// and reads the table (`FullTextTable`, `PostgresFullTextTable`).
package struct FullTextTableName: Sendable, Hashable {
    package let name: String
    package let entityTable: String
    /// The text columns, in the declaration's order.
    package let columns: [String]
    /// The catalog numbers of ``columns`` (`c5` → 5).
    private let numbers: [Int64?]

    package init(entityTable: String, columns: [String]) {
        self.entityTable = entityTable
        self.columns = columns
        numbers = columns.map { Int64($0.dropFirst()) }
        name = "\(entityTable)_fts_" + columns.joined(separator: "_")
    }

    /// The table `name` is, if it is one of `entityTable`'s (not a table beside it, whose name
    /// has a suffix).
    package init?(name: String, entityTable: String) {
        let prefix = entityTable + "_fts_"
        guard name.hasPrefix(prefix) else { return nil }
        let columns = name.dropFirst(prefix.count).split(separator: "_").map(String.init)
        guard !columns.isEmpty, columns.allSatisfy({ $0.hasPrefix("c") && Int64($0.dropFirst()) != nil }) else { return nil }
        self.init(entityTable: entityTable, columns: columns)
    }
}

extension FullTextTableName {
    /// The texts of `row` this table indexes, one per column (empty where the row has none).
    package func texts(of row: TableSession.SplitRow) -> [String] {
        numbers.map { number in
            row.values.first { $0.number == number }.flatMap { if case .text(let text) = $0.value { text } else { nil } } ?? ""
        }
    }
}

extension TableCatalog {
    /// The columns of a declared index's properties in `type`'s table: for a full-text index each
    /// property's text column, for another its first column; `nil` while one has none.
    package func columns(of type: String, for index: StoredIndex) -> [String]? {
        var columns: [String] = []
        for property in index.properties {
            let column =
                index.kind == .fullText
                ? propertyColumn(of: type, name: property, kind: .text).map { "c\($0)" }
                : propertyColumns(of: type).first { $0.name == property }?.column
            guard let column else { return nil }
            columns.append(column)
        }
        return columns
    }

    /// The text columns of `type`'s `properties`, in order (a full-text table's); `nil` when one
    /// has no text column.
    package func textColumns(of type: String, properties: [String]) -> [String]? {
        var columns: [String] = []
        for property in properties {
            guard let number = propertyColumn(of: type, name: property, kind: .text) else { return nil }
            columns.append("c\(number)")
        }
        return columns
    }
}
