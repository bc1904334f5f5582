/// Inserting and moving one element of an ordered to-many relation. Each writes exactly one link
/// (the element's new position key); no other element's position changes.
extension EntityModelProtocol {
    /// Puts the entity `target` at `index` in a to-many relation of this entity: links it (the
    /// inverse link goes at the end of the inverse relation) or, when already linked, moves it.
    ///
    /// ```swift
    /// try chat.insert("m42", into: \.$messages, at: 0, in: &context)   // now the first message
    /// ```
    ///
    /// - Parameters:
    ///   - target: The id of the entity to insert.
    ///   - keyPath: The to-many relation.
    ///   - index: Its index afterwards, in `0...count` (`count` without `target`).
    ///   - context: The context to change.
    /// - Throws: ``RelataError`` with code ``RelataError/Code/indexOutOfRange`` naming this
    ///   entity, the relation and the index; the context is unchanged.
    /// - Complexity: O(n) in the number of targets of this entity.
    public func insert<Target, D, K>(
        _ target: Target.ID,
        into keyPath: WritableKeyPath<Self, Relation<Target, D, Relations.ToMany, K>>,
        at index: Int,
        in context: inout Context
    ) throws {
        try context.exclusivelyMutating { context in
            let key = try checkInsertion(of: target, into: keyPath, at: index, in: context)
            let descriptor = Self.descriptor(key, to: Target.self)
            try context.checkUnique(descriptor, source: id, targets: [target])
            context.insert(descriptor, source: id, target: target, at: index)
        }
    }

    /// Saves `target` (with its own relations and hooks), then puts it at `index` in a to-many
    /// relation of this entity, as ``insert(_:into:at:in:)-(Target.ID,_,_,_)`` does.
    ///
    /// - Throws: ``RelataError`` when `index` is out of range (nothing is saved), or whatever
    ///   saving `target` throws.
    public func insert<Target, D, K>(
        _ target: Target,
        into keyPath: WritableKeyPath<Self, Relation<Target, D, Relations.ToMany, K>>,
        at index: Int,
        in context: inout Context
    ) throws {
        try context.exclusivelyMutating { context in
            _ = try checkInsertion(of: target.id, into: keyPath, at: index, in: context)
            try target.save(to: &context)
            try insert(target.id, into: keyPath, at: index, in: &context)
        }
    }

    /// The relation's key, once `index` is known to be a valid place for `target`.
    private func checkInsertion<Target, D, K>(
        of target: Target.ID,
        into keyPath: WritableKeyPath<Self, Relation<Target, D, Relations.ToMany, K>>,
        at index: Int,
        in context: Context
    ) throws -> _AnyRelationKey {
        let key = Self.relationKey(keyPath)
        let (count, current) = context.placement(of: target, in: Self.self, id, key)
        let others = count - (current == nil ? 0 : 1)
        guard (0...others).contains(index) else {
            throw RelataError.indexOutOfRange(Self.self, id: id, relation: key.nameString, index: index, count: others)
        }
        return key
    }

    /// Moves the linked entity `target` to `index` in a to-many relation of this entity.
    ///
    /// ```swift
    /// try chat.move("m7", in: \.$messages, to: 2, in: &context)
    /// ```
    ///
    /// - Parameters:
    ///   - target: The id of a linked entity.
    ///   - keyPath: The to-many relation.
    ///   - index: Its index afterwards, in `0..<count`.
    ///   - context: The context to change.
    /// - Throws: ``RelataError`` with code ``RelataError/Code/notLinked`` when `target` is not
    ///   linked, or ``RelataError/Code/indexOutOfRange``; the context is unchanged.
    public func move<Target, D, K>(
        _ target: Target.ID,
        in keyPath: WritableKeyPath<Self, Relation<Target, D, Relations.ToMany, K>>,
        to index: Int,
        in context: inout Context
    ) throws {
        let key = Self.relationKey(keyPath)
        try context.exclusivelyMutating { context in
            let (count, current) = context.placement(of: target, in: Self.self, id, key)
            guard let current else {
                throw RelataError.notLinked(Self.self, id: id, relation: key.nameString, target: target)
            }
            guard (0..<count).contains(index) else {
                throw RelataError.indexOutOfRange(Self.self, id: id, relation: key.nameString, index: index, count: count - 1)
            }
            guard current != index else { return }
            context.insert(Self.descriptor(key, to: Target.self), source: id, target: target, at: index)
        }
    }

    /// The position keys of the targets of a to-many relation of this entity, in order.
    ///
    /// - Complexity: O(n) in the number of targets.
    public func positions<Target, D, K>(
        of keyPath: KeyPath<Self, Relation<Target, D, Relations.ToMany, K>>,
        in context: Context
    ) -> [(id: Target.ID, key: PositionKey)] {
        let key = Self.relationKey(keyPath)
        return context.exclusively {
            guard let links = context.table(Self.self)?.existingLinkTable(key, Target.ID.self)?.list(of: id) else { return [] }
            return Array(zip(links.targets, links.keys).map { (id: $0, key: $1) })
        }
    }
}

extension Context {
    /// The number of targets of `source` through the to-many relation `key`, and the index of
    /// `target` among them. Returns plain values, so that no copy of the links outlives the call
    /// (a copy would make the next write copy them all).
    func placement<Source: EntityModelProtocol, TargetID: Hashable & Sendable>(
        of target: TargetID, in _: Source.Type, _ source: Source.ID, _ key: _AnyRelationKey
    ) -> (count: Int, index: Int?) {
        guard let table = table(Source.self)?.existingLinkTable(key, TargetID.self) else { return (0, nil) }
        let list = table.list(of: source)
        return (list?.count ?? 0, list?.index(of: target))
    }
}
