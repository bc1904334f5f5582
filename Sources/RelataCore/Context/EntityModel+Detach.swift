extension EntityModelProtocol {
    /// Removes every link of this entity through a mutual relation, on both sides; the related
    /// entities stay in the context.
    ///
    /// ```swift
    /// user.detach(\.$chats, inverse: \.$users, in: &context)
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: The relation of this entity.
    ///   - inverse: Its inverse on the target (a compile-time witness that the relation is mutual).
    ///   - context: The context to change.
    public func detach<Target, C, K, IC, IK>(
        _ keyPath: WritableKeyPath<Self, Relation<Target, Relations.Mutual, C, K>>,
        inverse: WritableKeyPath<Target, Relation<Self, Relations.Mutual, IC, IK>>,
        in context: inout Context
    ) {
        _ = RelationAction.unlinkAll(Self.self, Self.relationKey(keyPath), id: id, in: &context)
    }

    /// Removes every link of this entity through a one-way relation; the related entities stay.
    ///
    /// ```swift
    /// message.detach(\.$viewedBy, in: &context)
    /// ```
    public func detach<Target, C, K>(
        _ keyPath: WritableKeyPath<Self, Relation<Target, Relations.OneWay, C, K>>,
        in context: inout Context
    ) {
        _ = RelationAction.unlinkAll(Self.self, Self.relationKey(keyPath), id: id, in: &context)
    }

    /// Removes every link of this entity through a mutual relation and erases the related
    /// entities (each with its own delete rules and hooks).
    ///
    /// ```swift
    /// try message.delete(\.$attachment, inverse: \.$message, from: &context)
    /// ```
    ///
    /// - Throws: Whatever a hook of an erased entity throws.
    public func delete<Target, C, K, IC, IK>(
        _ keyPath: WritableKeyPath<Self, Relation<Target, Relations.Mutual, C, K>>,
        inverse: WritableKeyPath<Target, Relation<Self, Relations.Mutual, IC, IK>>,
        from context: inout Context
    ) throws {
        let ids = RelationAction.unlinkAll(Self.self, Self.relationKey(keyPath), id: id, in: &context)
        for targetID in ids {
            try Target.delete(id: targetID as! Target.ID, from: &context)
        }
    }

    /// Removes every link of this entity through a one-way relation and erases the related entities.
    ///
    /// - Throws: Whatever a hook of an erased entity throws.
    public func delete<Target, C, K>(
        _ keyPath: WritableKeyPath<Self, Relation<Target, Relations.OneWay, C, K>>,
        from context: inout Context
    ) throws {
        let ids = RelationAction.unlinkAll(Self.self, Self.relationKey(keyPath), id: id, in: &context)
        for targetID in ids {
            try Target.delete(id: targetID as! Target.ID, from: &context)
        }
    }
}

/// Finds a relation of `Entity` by key and removes the links of one entity through it.
enum RelationAction {
    static func unlinkAll<Entity: EntityModelProtocol>(
        _: Entity.Type, _ key: _AnyRelationKey, id: Entity.ID, in context: inout Context
    ) -> [any Hashable & Sendable] {
        var visitor = Unlinker<Entity>(ordinal: key.ordinal, id: id, context: context)
        context = Context()
        try? Entity._relataVisitRelations(&visitor)
        context = visitor.context
        return visitor.removed
    }

    struct Unlinker<Entity: EntityModelProtocol>: _RelationVisitor {
        let ordinal: Int
        let id: Entity.ID
        var context: Context
        var removed: [any Hashable & Sendable] = []

        mutating func visit<Source, Target, D, C, K>(
            _ descriptor: RelationDescriptor<Source, Target>,
            _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>
        ) throws {
            guard descriptor.key.ordinal == ordinal else { return }
            removed = context.unlinkAll(descriptor, source: id as! Source.ID)
        }
    }
}
