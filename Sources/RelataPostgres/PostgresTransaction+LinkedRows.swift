import PostgresNIO
import RelataCore

/// Links read with the entity rows at their other end, in one round trip per relation: what a
/// query that resolves a relation's entities reads from one level.
extension PostgresTransaction {
    func fetchSourcesAndRows(of targets: [LinkTargetKey]) throws -> LinkedRows {
        var found = LinkedRows(links: [], entities: [])
        for (name, keys) in targets.groupedInOrder(by: { [$0.type, $0.relation] }) {
            let (type, relation) = (name[0], name[1])
            switch try tables.relationTable(of: type, relation: relation) {
            case .column(let column, let table):
                // The sources' rows hold the links: the rows are the answer.
                var query = PostgresQuery(
                    unsafeSQL: """
                        SELECT e.* FROM \(schema.qualified(table)) e
                        JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(target, n) ON e.\(column.target) = k.target
                        ORDER BY k.n, e.\(column.inverse) NULLS FIRST, e.id
                        """
                )
                query.binds.append(keys.map(\.target))
                for record in try entityRows(query, type: type) {
                    guard let link = record.toOne.first(where: { $0.relation == relation }) else { continue }
                    found.links.append(
                        LinkRecord(type: type, relation: relation, source: record.id, target: link.target, position: nil, inversePosition: link.inversePosition)
                    )
                    found.entities.append(record)
                }
            case .links(let table):
                let joined = try joined(
                    links: table, on: "target", keys.map(\.target), order: "l.inverse NULLS FIRST, l.source",
                    entities: type, at: "source", type: type, relation: relation
                )
                found.links += joined.links
                found.entities += joined.entities
            case nil:
                continue
            }
        }
        return Self.eachRowOnce(found)
    }

    func fetchLinksAndRows(of sources: [LinkSourceKey], targetType: String) throws -> LinkedRows {
        var found = LinkedRows(links: [], entities: [])
        for (name, keys) in sources.groupedInOrder(by: { [$0.type, $0.relation] }) {
            guard case .links(let table)? = try tables.relationTable(of: name[0], relation: name[1]) else { continue }
            let joined = try joined(
                links: table, on: "source", keys.map(\.source), order: "l.position NULLS FIRST, l.target",
                entities: targetType, at: "target", type: name[0], relation: name[1]
            )
            found.links += joined.links
            found.entities += joined.entities
        }
        return Self.eachRowOnce(found)
    }

    /// `found` with each entity row once (several relations of a batch may reach one entity).
    private static func eachRowOnce(_ found: LinkedRows) -> LinkedRows {
        var seen = Set<EntityKey>(), once = found
        once.entities = found.entities.filter { seen.insert(EntityKey(type: $0.type, id: $0.id)).inserted }
        return once
    }

    /// The rows of link table `table` whose column `key` is one of `values` (in their order, then
    /// `order`), each with the row of the `entities` entity its column `end` names, if stored;
    /// each entity once.
    private func joined(
        links table: String, on key: String, _ values: [String], order: String, entities: String, at end: String, type: String, relation: String
    ) throws -> LinkedRows {
        let entityTable = try tables.entityTable(of: entities)
        let columns = entityTable == nil ? "" : ", e.*"
        let join = entityTable.map { " LEFT JOIN \(schema.qualified($0)) e ON e.id = l.\(end)" } ?? ""
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT l.source, l.target, l.position, l.inverse\(columns) FROM \(schema.qualified(table)) l
                JOIN pg_catalog.unnest($1::text[]) WITH ORDINALITY AS k(value, n) ON l.\(key) = k.value\(join)
                ORDER BY k.n, \(order)
                """
        )
        query.binds.append(values)
        var found = LinkedRows(links: [], entities: [])
        var layout: EntityRowLayout?
        var seen = Set<String>()
        for row in try execute(query) {
            let cells = row.makeRandomAccess()
            found.links.append(try Self.linkRecord(type, relation, row))
            // A link to an entity not stored: NULL columns from the outer join.
            guard entityTable != nil, let id = try cells[4].decode(String?.self), seen.insert(id).inserted else { continue }
            found.entities.append(try entityRecord(cells, from: 4, type: entities, layout: &layout))
        }
        return found
    }
}
