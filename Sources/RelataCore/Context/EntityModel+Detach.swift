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
        _ = RelationAction.unlinkAll(Self.self, Target.self, Self.relationKey(keyPath), id: id, in: &context)
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
        _ = RelationAction.unlinkAll(Self.self, Target.self, Self.relationKey(keyPath), id: id, in: &context)
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
        let ids = RelationAction.unlinkAll(Self.self, Target.self, Self.relationKey(keyPath), id: id, in: &context)
        for targetID in ids {
            try Target.delete(id: targetID, from: &context)
        }
    }

    /// Removes every link of this entity through a one-way relation and erases the related entities.
    ///
    /// - Throws: Whatever a hook of an erased entity throws.
    public func delete<Target, C, K>(
        _ keyPath: WritableKeyPath<Self, Relation<Target, Relations.OneWay, C, K>>,
        from context: inout Context
    ) throws {
        let ids = RelationAction.unlinkAll(Self.self, Target.self, Self.relationKey(keyPath), id: id, in: &context)
        for targetID in ids {
            try Target.delete(id: targetID, from: &context)
        }
    }
}

/// Finds a relation of `Entity` by key and removes the links of one entity through it.
enum RelationAction {
    static func unlinkAll<Entity: EntityModelProtocol, Target: EntityModelProtocol>(
        _: Entity.Type, _: Target.Type, _ key: _AnyRelationKey, id: Entity.ID, in context: inout Context
    ) -> [Target.ID] {
        context.exclusivelyMutating { context in
            var visitor = Unlinker<Entity, Target>(ordinal: key.ordinal, id: id, context: context)
            context = Context(storage: Context.emptyStorage)
            try? Entity._relataVisitRelations(&visitor)
            context = visitor.context
            return visitor.removed
        }
    }

    struct Unlinker<Entity: EntityModelProtocol, Target: EntityModelProtocol>: _RelationVisitor {
        let ordinal: Int
        let id: Entity.ID
        var context: Context
        var removed: [Target.ID] = []

        mutating func visit<S, T, D, C, K>(
            _ descriptor: RelationDescriptor<S, T>,
            _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
        ) throws {
            // The ordinal names exactly one relation of `Entity`, whose types are `S == Entity`
            // and `T == Target` (the key path the caller passed has those types).
            guard descriptor.key.ordinal == ordinal, S.self == Entity.self, T.self == Target.self else { return }
            let targets = context.unlinkAll(descriptor, source: checkedCast(id, to: S.ID.self, in: descriptor.key.name))
            removed = checkedCast(targets, to: [Target.ID].self, in: descriptor.key.name)
        }
    }
}
