extension Context {
    /// Resolves the collisions saving `entity` would make with its type's ``Unique``
    /// declarations: for each, another entity holding the same values, if there is one, goes to
    /// the declaration's ``CollisionResolver`` (which may throw to refuse the save). Called by the
    /// `save(to:options:)` `@EntityModel` writes, after `willSave(to:)`, before the entity is
    /// stored.
    ///
    /// The holder is looked up through the declaration's index: in memory its hash index (of one
    /// `Hashable` property), in a context over storage the index in storage (the first two rows
    /// holding the values, in id order), the context's own changes included.
    public mutating func _resolveCollisions<Entity: EntityModelProtocol>(_ entity: Entity) throws {
        for declaration in Entity._relataIndexes {
            guard let uniqueness = declaration.uniqueness, let other = holder(of: entity, uniqueness) else { continue }
            try uniqueness.resolver.resolveCollision(existing: other, new: entity, indexName: uniqueness.name, in: &self)
        }
    }

    /// An entity other than `entity` holding its values of `uniqueness`, if there is one.
    private func holder<Entity: EntityModelProtocol>(of entity: Entity, _ uniqueness: Uniqueness<Entity>) -> Entity.ID? {
        let holds: (Entity) -> Bool = { other in other.id != entity.id && uniqueness.holdSameValues(other, entity) }
        let lookups = uniqueness.keyPaths.map { IndexLookup(keyPath: $0, test: .equal, value: entity[keyPath: $0]) }
        let candidates: [Entity.ID]
        if let indexed = indexedIDs(of: Entity.self, lookups) {
            candidates = indexed
        } else {
            let filters = uniqueness.columnFilters(of: entity)
            let covered = filters.count == uniqueness.keyPaths.count
            // Storage may stop after two rows (this entity's and another) only when it tests
            // every value exactly. A nil value (`IS NULL`, which rows holding other values in
            // their payload pass too) is looked for a page of rows at a time until one holds
            // it: many entities may hold nil where the resolver lets them.
            if covered, filters.allSatisfy(\.isExact) {
                candidates = storedAndWrittenIDs(of: Entity.self, matching: filters, lookups, first: 2)
                    ?? ids(of: Entity.self, matching: filters, first: 2) ?? ids(of: Entity.self, matching: filters) ?? ids(of: Entity.self)
            } else if covered, let found = firstStoredOrWrittenID(of: Entity.self, matching: filters, lookups, where: holds) {
                return found
            } else {
                candidates = (filters.isEmpty ? nil : ids(of: Entity.self, matching: filters)) ?? ids(of: Entity.self)
            }
        }
        return exclusively {
            guard let table = table(Entity.self) else { return nil }
            return candidates.first { id in table.entity(id).map(holds) ?? false }
        }
    }
}
