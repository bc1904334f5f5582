extension Context {
    /// Erases `entity`: runs `willDelete`, removes it, applies the delete rule of every relation
    /// (nullify: remove links on both sides; cascade: also erase the targets), removes the links
    /// one-way relations of other entities hold to it, and runs `didDelete`.
    /// Called by the generated `delete(from:)`.
    @_documentation(visibility: private)
    public mutating func _delete<Entity: EntityModelProtocol>(_ entity: Entity) throws {
        try entity.willDelete(from: &self)
        mutableTable(Entity.self).entities[entity.id] = nil
        try _eraseLinks(of: Entity.self, id: entity.id)
        try entity.didDelete(from: &self)
    }

    /// Removes every link of the entity `id` (both sides), cascading where the rule says so.
    @_documentation(visibility: private)
    public mutating func _eraseLinks<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID) throws {
        var eraser = LinkEraser<Entity>(context: self, id: id)
        self = Context()  // release our reference so the eraser's copy stays unique
        do {
            try Entity._relataVisitRelations(&eraser)
        } catch {
            self = eraser.context
            throw error
        }
        self = eraser.context
        let table = mutableTable(Entity.self)
        for backlinks in table.backlinks.values {
            backlinks.unlinkSources(of: id, in: &self)
        }
        for erase in eraser.cascaded {
            try erase(&self)
        }
    }
}

/// Removes the links of one entity relation by relation and collects the cascade.
struct LinkEraser<Entity: EntityModelProtocol>: _RelationVisitor {
    var context: Context
    let id: Entity.ID
    var cascaded: [(inout Context) throws -> Void] = []

    init(context: Context, id: Entity.ID) {
        self.context = context
        self.id = id
    }

    mutating func visit<Source, Target, D, C, K>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>
    ) throws {
        let source = unsafeBitCast(id, to: Source.ID.self)
        let targets = context.unlinkAll(descriptor, source: source)
        guard descriptor.deleteRule == .cascade else { return }
        for target in targets {
            cascaded.append { context in try Target.delete(id: target, from: &context) }
        }
    }
}
