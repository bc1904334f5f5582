// Unique relations (SQLiteModel's): a target may be linked by one source at most.

extension Context {
    /// Throws when saving `entity` would link, through a unique relation, a target that another
    /// source already links. Called by the generated `save` before anything is changed.
    @_documentation(visibility: private)
    public func _checkUnique<Entity: EntityModelProtocol>(_ entity: Entity) throws {
        try exclusively {
            var checker = UniqueChecker(context: self, entity: entity)
            try Entity._relataVisitRelations(&checker)
        }
    }

    /// Throws when linking `targets` to `source` through `descriptor` (unique) would take a target
    /// another source already links.
    @usableFromInline
    func checkUnique<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ descriptor: RelationDescriptor<S, T>, source: S.ID, targets: [T.ID]
    ) throws {
        guard descriptor.isUnique else { return }
        for target in targets {
            let holders: [S.ID]
            if let inverse = descriptor.inverse {
                holders = table(T.self)?.existingLinkTable(inverse, S.ID.self)?.targets(of: target, toMany: inverse.toMany) ?? []
            } else {
                holders = backlinkIndex(descriptor)?.sources(of: target)?.ids ?? []
            }
            if let other = holders.first(where: { $0 != source }) {
                throw RelataError(
                    code: .uniqueViolation, entityType: String(describing: S.self), id: "\(source)", relation: descriptor.name,
                    message: "\(T.self) \"\(target)\" is already linked through the unique relation \(descriptor.name) "
                        + "by \(S.self) \"\(other)\"; \(S.self) \"\(source)\" cannot link it too"
                )
            }
        }
    }
}

/// Checks each unique relation of an entity about to be saved.
struct UniqueChecker<Entity: EntityModelProtocol>: _RelationVisitor {
    let context: Context
    let entity: Entity

    func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard descriptor.isUnique, let entity = entity as? S else { return }
        let relation = entity[keyPath: keyPath]
        try context.checkUnique(descriptor, source: entity.id, targets: relation.targetIDs)
    }
}

extension Relation {
    /// The ids this value would link (none for `.none` and `.null`).
    @usableFromInline
    var targetIDs: [Entity.ID] {
        switch state {
        case .none, .null: []
        case .id(let id): [id]
        case .ids(let ids, _): ids
        case .entities(let entities, _, _): entities.map { $0.id }
        }
    }
}
