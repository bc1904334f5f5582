/// What a storage holds, by kind, without its rows: the entity types and relations it has
/// tables or columns for, and its dynamic relationships grouped by kind and end types.
///
/// A ``Store`` reads it at open (``StorageReader/inventory()``) to count what its schema does
/// not know (``Store/ignoredRecords``) and to find rows written in an older form, without
/// reading the rows themselves.
public struct StorageInventory: Sendable, Equatable {
    /// One relation that has stored links: a to-many relation's link table, or a to-one
    /// relation's column in its type's entity rows.
    public struct Relation: Sendable, Hashable {
        /// The stored name of the type whose rows hold the links.
        public var type: String
        /// The relation's name.
        public var relation: String
        /// Whether the links are link rows (a to-many relation's table) rather than a column of
        /// the type's entity rows (a to-one relation).
        public var isToMany: Bool

        public init(type: String, relation: String, isToMany: Bool) {
            self.type = type
            self.relation = relation
            self.isToMany = isToMany
        }
    }

    /// The dynamic relationships of one kind between two types, and how many are stored.
    public struct DynamicLinkGroup: Sendable, Hashable {
        public var kind: String
        public var sourceType: String
        public var targetType: String
        public var count: Int

        public init(kind: String, sourceType: String, targetType: String, count: Int) {
            self.kind = kind
            self.sourceType = sourceType
            self.targetType = targetType
            self.count = count
        }
    }

    /// The stored names of the types that have entity rows (or a table for them).
    public var entityTypes: Set<String>
    /// The relations that have stored links (or a table or column for them).
    public var relations: Set<Relation>
    /// The stored dynamic relationships, grouped.
    public var dynamicLinkGroups: [DynamicLinkGroup]

    public init(entityTypes: Set<String> = [], relations: Set<Relation> = [], dynamicLinkGroups: [DynamicLinkGroup] = []) {
        self.entityTypes = entityTypes
        self.relations = relations
        self.dynamicLinkGroups = dynamicLinkGroups
    }
}

extension StorageReader {
    /// The inventory found by reading every row (see ``StorageReader/inventory()``): right for
    /// any backend, O(rows). SQLite and PostgreSQL answer from their catalogs instead.
    public func inventory() throws -> StorageInventory {
        var inventory = StorageInventory()
        var groups: [StorageInventory.DynamicLinkGroup: Int] = [:]
        _ = try load(
            entities: { record in
                inventory.entityTypes.insert(record.type)
                for link in record.toOne {
                    inventory.relations.insert(.init(type: record.type, relation: link.relation, isToMany: false))
                }
            },
            links: { inventory.relations.insert(.init(type: $0.type, relation: $0.relation, isToMany: true)) },
            dynamicLinks: { groups[.init(kind: $0.kind, sourceType: $0.sourceType, targetType: $0.targetType, count: 0), default: 0] += 1 }
        )
        inventory.dynamicLinkGroups = groups.map { group, count in
            StorageInventory.DynamicLinkGroup(kind: group.kind, sourceType: group.sourceType, targetType: group.targetType, count: count)
        }
        return inventory
    }

    /// How many links `relation` stores, found by reading every row (see
    /// ``StorageReader/fetchLinkCount(of:)``).
    public func fetchLinkCount(of relation: StorageInventory.Relation) throws -> Int {
        var count = 0
        _ = try load(
            entities: { record in
                guard record.type == relation.type, !relation.isToMany else { return }
                count += record.toOne.count { $0.relation == relation.relation }
            },
            links: { if relation.isToMany, $0.type == relation.type, $0.relation == relation.relation { count += 1 } },
            dynamicLinks: { _ in }
        )
        return count
    }
}
