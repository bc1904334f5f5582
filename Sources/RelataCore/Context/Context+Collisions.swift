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
        let filters = uniqueness.columnFilters(of: entity)
        // Storage may stop after two rows (this entity's and another) only when it tests every
        // value exactly; otherwise every row that passes its tests is a candidate.
        let lookups = uniqueness.keyPaths.map { IndexLookup(keyPath: $0, test: .equal, value: entity[keyPath: $0]) }
        let exact = filters.count == uniqueness.keyPaths.count
        let candidates =
            indexedIDs(of: Entity.self, lookups)
            ?? (exact ? storedAndWrittenIDs(of: Entity.self, matching: filters, lookups, first: 2) : nil)
            ?? (exact ? ids(of: Entity.self, matching: filters, first: 2) : nil)
            ?? (filters.isEmpty ? nil : ids(of: Entity.self, matching: filters))
            ?? ids(of: Entity.self)
        return exclusively {
            guard let table = table(Entity.self) else { return nil }
            return candidates.first { id in
                guard id != entity.id, let other = table.entity(id) else { return false }
                return uniqueness.holdSameValues(other, entity)
            }
        }
    }
}
