/// The table of trigrams of one ``FullTextIndex`` in a store (SQLite's and PostgreSQL's), named
/// after its entity table and the text columns it indexes, in the declaration's order
/// (`e3_fts_c5_c6`), so the name alone says what it holds. Each backend adds how it makes, keeps
/// and reads the table (`FullTextTable`, `PostgresFullTextTable`).
package struct FullTextTableName: Sendable, Hashable {
    package let name: String
    package let entityTable: String
    /// The text columns, in the declaration's order.
    package let columns: [String]

    package init(entityTable: String, columns: [String]) {
        self.entityTable = entityTable
        self.columns = columns
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

extension TableCatalog {
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
