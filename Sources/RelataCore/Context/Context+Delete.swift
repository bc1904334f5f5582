extension Context {
    /// Erases `entity`: runs `willDelete`, removes it, applies the delete rule of every relation
    /// (nullify: remove links on both sides; cascade: also erase the targets), removes the links
    /// one-way relations of other entities hold to it, and runs `didDelete`.
    /// Called by the generated `delete(from:)`.
    @_documentation(visibility: private)
    @inlinable
    public mutating func _delete<Entity: EntityModelProtocol>(_ entity: Entity) throws {
        try exclusivelyMutating { try $0.erase(entity) }
    }

    @inlinable
    mutating func erase<Entity: EntityModelProtocol>(_ entity: Entity) throws {
        if DenyRules.reachable(from: Entity.self) || hasDynamicDenyRisk {
            try checkDeny(Entity.self, id: entity.id)
        }
        // Its tombstone: as it is before the hooks and cascades change it, stored after.
        let tombstone = tombstone(of: entity)
        try entity.willDelete(from: &self)
        // Over storage, its dynamic relationships are read while it exists (a relationship read
        // after, to an entity that is gone, would not be kept: the erasure would miss it).
        if readsDynamicLinks { readDynamicLinks(of: EntityReference(Entity.self, id: entity.id)) }
        do {
            // Scoped: a table reference held across `_eraseLinks` would make it copy the table.
            let table = mutableTable(Entity.self)
            table.setEntity(nil, for: entity.id)
            table.touch(entity.id)
        }
        recordErasure(Entity.self, id: entity.id)
        try _eraseLinks(of: Entity.self, id: entity.id)
        if let tombstone { upsert(tombstone, options: .replace, recording: false) }
        try entity.didDelete(from: &self)
    }

    /// Removes every link of the entity `id` (both sides), cascading where the rule says so.
    @_documentation(visibility: private)
    @inlinable
    public mutating func _eraseLinks<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID) throws {
        try exclusivelyMutating { try $0.eraseLinks(of: Entity.self, id: id, cascade: true) }
    }

    /// Removes every link of the entity `id` (both sides); erases the targets of cascading
    /// relations when `cascade` (replays do not: the cascade was recorded).
    @inlinable
    mutating func eraseLinks<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID, cascade: Bool) throws {
        // The eraser works on this context's storage; `self` is emptied meanwhile so that the
        // storage stays uniquely referenced and is mutated in place.
        var eraser = LinkEraser<Entity>(context: self, id: id, cascade: cascade)
        self = Context(storage: Context.emptyStorage)
        do {
            try Entity._relataVisitRelations(&eraser)
        } catch {
            self = eraser.takeContext()
            throw error
        }
        self = eraser.takeContext()
        if self.table(Entity.self)?.backlinks.isEmpty == false {
            let backlinks = Array(mutableTable(Entity.self).backlinks.values)
            for table in backlinks {
                table.unlinkSources(of: id, in: &self)
            }
        }
        try eraseDynamicLinks(of: Entity.self, id: id, cascade: cascade)
        for erase in eraser.cascaded {
            try erase(&self)
        }
    }
}

/// Prefetches, for entities about to be erased, the links of each of their relations and what
/// the erasure of the targets of their cascading relations reads (see
/// `Context.prefetchErasure(of:ids:depth:)`).
@usableFromInline
struct CascadePrefetcher<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let ids: [Entity.ID]
    @usableFromInline let depth: Int

    @inlinable
    init(context: Context, ids: [Entity.ID], depth: Int) {
        self.context = context
        self.ids = ids
        self.depth = depth
    }

    @inlinable
    mutating func visit<Source, Target, D, C, K>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>
    ) throws {
        guard let links = context.table(Source.self)?.existingLinkTable(descriptor.key, Target.ID.self) else { return }
        let sources = checkedCast(ids, to: [Source.ID].self, in: descriptor.key.name)
        // Erasing reads every relation's links: those of all the sources in one batch.
        links.ensure(sources)
        let cascades = descriptor.deleteRule == .cascade || descriptor.deleteRule == .cascadeOrphans
        // A relation that only unlinks: the other side of its targets is read for all the
        // sources at once (unlinking reads it; one source at a time, it is one read each).
        guard cascades || descriptor.inverse != nil else { return }
        var targets: [Target.ID] = []
        for source in sources { targets += links.targets(of: source, toMany: descriptor.key.toMany) }
        if cascades {
            context.prefetchErasure(of: Target.self, ids: targets, depth: depth)
        } else if let inverse = descriptor.inverse, targets.count > 1 {
            context.table(Target.self)?.existingLinkTable(inverse, Source.ID.self)?.ensure(targets)
        }
    }
}

/// Removes the links of one entity relation by relation and collects the cascade.
@usableFromInline
struct LinkEraser<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline var context: Context
    @usableFromInline let id: Entity.ID
    @usableFromInline let cascade: Bool
    @usableFromInline var cascaded: [(inout Context) throws -> Void] = []

    @inlinable
    init(context: Context, id: Entity.ID, cascade: Bool) {
        self.context = context
        self.id = id
        self.cascade = cascade
    }

    /// Hands the context back, leaving an empty one behind (so it stays uniquely referenced).
    @inlinable
    mutating func takeContext() -> Context {
        let context = self.context
        self.context = Context(storage: Context.emptyStorage)
        return context
    }

    @inlinable
    mutating func visit<Source, Target, D, C, K>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>
    ) throws {
        let source = checkedCast(id, to: Source.ID.self, in: descriptor.key.name)
        if descriptor.key.toMany { context.prefetchUnlinking(descriptor, source: source, erasing: cascade && descriptor.deleteRule == .cascade) }
        let targets = context.unlinkAll(descriptor, source: source)
        guard cascade else { return }
        switch descriptor.deleteRule {
        case .cascade:
            for target in targets {
                cascaded.append { context in try Target.delete(id: target, from: &context) }
            }
        case .cascadeOrphans:
            // Checked once every link of the erased entity is gone: another owner may remain.
            for target in targets {
                cascaded.append { context in
                    guard context.entity(Target.self, id: target) != nil, !context.hasOwner(Target.self, id: target) else {
                        return
                    }
                    try Target.delete(id: target, from: &context)
                }
            }
        case .nullify, .deny:
            return
        }
    }
}

extension Context {
    /// Before the links of `source` through the to-many `d` are removed, in a context over
    /// storage: reads the other side of every target in one batch (unlinking them one at a time
    /// would read each), and, when the targets are to be erased, everything erasing them reads.
    @inlinable
    mutating func prefetchUnlinking<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, erasing: Bool
    ) {
        guard storage.base != nil else { return }
        let targets = mutableTable(S.self).linkTable(d.key, T.ID.self).targets(of: source, toMany: true)
        guard targets.count > 1 else { return }
        if erasing {
            prefetchErasure(of: T.self, ids: targets)
        } else if let inverse = d.inverse {
            mutableTable(T.self).linkTable(inverse, S.ID.self).ensure(targets)
        }
    }

    /// Before a cascade erases `ids` of `Entity` one at a time, in a context over storage: reads
    /// what erasing them reads — their rows (with their to-one links), the links of each of their
    /// relations, their dynamic relationships — in one batch per kind, not one read per entity;
    /// then, level by level, the same for the targets their cascading relations will erase (a
    /// chat's messages, then the messages' attachments), up to `depth` levels.
    ///
    /// Inlinable, as the visitor it runs: specialized in the model's module for the types of
    /// each relation, the reads of a cascade run no generic code (through `AnyLinkTable`, as
    /// they once ran, they were unspecialized).
    @inlinable
    func prefetchErasure<Entity: EntityModelProtocol>(of _: Entity.Type, ids: [Entity.ID], depth: Int = 8) {
        guard storage.base != nil, ids.count > 1, depth > 0, let table = table(Entity.self) else { return }
        // The rows' to-one links are placed as they are read: the links below ask for them.
        table.ensure(ids, placingRowLinks: true)
        ensureDynamicLinks(of: Entity.self, ids: ids)
        var next = CascadePrefetcher<Entity>(context: self, ids: ids, depth: depth - 1)
        try? Entity._relataVisitRelations(&next)
    }

    /// Removes every link of the entity `id` without cascading (a replayed erasure).
    mutating func eraseLinks<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID) {
        try? eraseLinks(of: Entity.self, id: id, cascade: false)
    }
}
