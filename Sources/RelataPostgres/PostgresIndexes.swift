import Foundation
import PostgresNIO
import RelataCore

/// The SQL indexes a PostgreSQL store keeps for the ``Index`` and ``HashIndex`` declarations of
/// its types: one B-tree per declaration on the properties' columns (`e<n>_x_c<a>_c<b>`), made
/// when missing and dropped when no longer declared, by the store's open and by a write of the
/// type, under the writers' lock. A ``FullTextIndex`` has no table on PostgreSQL yet: a search
/// ranks the type's entities in Swift (the same answer as elsewhere).
struct PostgresIndexes {
    let transaction: PostgresTransaction

    /// Makes and drops the indexes of the types in `indexes` whose declarations differ from what
    /// `synced` says this backend last left; returns what it leaves.
    func sync(_ indexes: [String: [StoredIndex]], synced: [String: [StoredIndex]]) throws -> [String: [StoredIndex]] {
        var synced = synced
        let tables = transaction.tables!
        let schema = transaction.schema
        for (type, declared) in indexes.sorted(by: { $0.key < $1.key }) where synced[type] != declared {
            guard let table = try tables.entityTable(of: type) else { continue }
            var wanted = Set<String>(), complete = true
            for index in declared where index.kind != .fullText {
                let columns = index.properties.compactMap { property in tables.catalog.propertyColumns(of: type).first { $0.name == property }?.column }
                guard columns.count == index.properties.count else {
                    complete = false
                    continue
                }
                let name = "\(table)_x_" + columns.joined(separator: "_")
                wanted.insert(name)
                try transaction.execute(PostgresQuery(unsafeSQL: "CREATE INDEX IF NOT EXISTS \(name) ON \(schema.qualified(table)) (\(columns.joined(separator: ", ")))"))
            }
            var query = PostgresQuery(
                unsafeSQL: "SELECT indexname FROM pg_catalog.pg_indexes WHERE schemaname = $1 AND tablename = $2 AND indexname LIKE $3"
            )
            query.binds.append(schema.schema)
            query.binds.append(table)
            query.binds.append(table + "\\_x\\_%")
            for row in try transaction.execute(query) {
                let name = try row.decode(String.self)
                if !wanted.contains(name) { try transaction.execute(PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \(schema.qualified(name))")) }
            }
            synced[type] = complete ? declared : nil
        }
        return synced
    }
}
