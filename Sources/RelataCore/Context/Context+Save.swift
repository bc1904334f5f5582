import Foundation

extension Context {
    /// Stores `entity` normalized, merged with the stored one by `options`.
    /// Called by the generated `save(to:options:)`; runs no hook and saves no relation.
    @_documentation(visibility: private)
    @inlinable
    public mutating func _upsert<Entity: EntityModelProtocol>(_ entity: Entity, options: MergeStrategy<Entity>) {
        exclusivelyMutating { $0.upsert(entity, options: options) }
    }

    /// Also records the save's time (``Metadata``) and erases the entity's tombstone
    /// (``Deleted``); `recording: false` leaves it out of the change set (a tombstone).
    @inlinable
    mutating func upsert<Entity: EntityModelProtocol>(_ entity: Entity, options: MergeStrategy<Entity>, recording: Bool = true) {
        var normalized = entity
        normalized.normalize()
        eraseTombstone(of: Entity.self, id: entity.id)
        let table = mutableTable(Entity.self)
        table.touch(entity.id)
        if case .replace = options.kind {
            table.setEntity(normalized, for: entity.id, savedAt: Date())
            if recording { recordUpsert(input: normalized, merged: normalized, options: options) }
            return
        }
        let input = normalized
        if let old = table.entity(entity.id) {
            normalized = options.mergeValues(old, normalized)
        }
        table.setEntity(normalized, for: entity.id, savedAt: Date())
        if recording { recordUpsert(input: input, merged: normalized, options: options) }
    }

    /// Saves one relation value of the entity `id`: the related entities it carries first (each
    /// with its own hooks and relations), then the links, with the other sides.
    /// Called by the generated `save(to:options:)`.
    @_documentation(visibility: private)
    @inlinable
    public mutating func _saveRelation<Source: EntityModelProtocol, Target, D, C, K>(
        _ relation: Relation<Target, D, C, K>,
        of id: Source.ID,
        _ descriptor: RelationDescriptor<Source, Target>
    ) throws {
        try exclusivelyMutating { try $0.saveRelation(relation, of: id, descriptor) }
    }

    @inlinable
    mutating func saveRelation<Source: EntityModelProtocol, Target, D, C, K>(
        _ relation: Relation<Target, D, C, K>,
        of id: Source.ID,
        _ descriptor: RelationDescriptor<Source, Target>
    ) throws {
        if descriptor.isUnique {
            try checkUnique(descriptor, source: id, targets: relation.targetIDs)
        }
        switch relation.state {
        case .none:
            return
        case .null:
            unlinkAll(descriptor, source: id)
        case .id(let target):
            linkOne(descriptor, source: id, to: target)
        case .ids(let ids, let appending):
            link(descriptor, source: id, to: ids, appending: appending)
        case .entities(let entities, let fragment, let appending):
            let options = fragment ? MergeStrategy<Target>.fragment : MergeStrategy<Target>.default
            for entity in entities {
                try entity.save(to: &self, options: options)
            }
            if entities.count == 1, !descriptor.key.toMany {
                linkOne(descriptor, source: id, to: entities[0].id)
            } else {
                link(descriptor, source: id, to: entities.map { $0.id }, appending: appending)
            }
        }
    }
}
