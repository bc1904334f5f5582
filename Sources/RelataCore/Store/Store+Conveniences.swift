/// One-call reads and writes: SQLiteModel's background get and set, in Swift concurrency. Reads run
/// on a snapshot on the store's reader threads (never blocking Swift's cooperative pool, see
/// ``Store/read(_:)-s1ly``); writes are ordinary ``Store/write(_:)-7h378`` transactions.
extension Store {
    /// Saves `entity` (and the related entities it carries) in one write.
    ///
    /// - Throws: What saving throws, or a ``RelataError`` when persisting fails.
    public func save<Entity: EntityModelProtocol>(_ entity: Entity, options: sending MergeStrategy<Entity> = .default) async throws {
        try await write { context in try entity.save(to: &context, options: options) }
    }

    /// Erases the entity `id` of `type` (by its delete rules) in one write.
    public func delete<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) async throws {
        try await write { context in try Entity.delete(id: id, from: &context) }
    }

    /// The stored entity, normalized (relations `.none`), or `nil`.
    public nonisolated func entity<Entity: EntityModelProtocol>(_ type: Entity.Type, id: Entity.ID) async -> Entity? {
        await offPool { self.context.entity(type, id: id) }
    }

    /// The entities a to-many relation of `id` links to, in order (background get).
    ///
    /// ```swift
    /// let users = await store.get(\Chat.$users, of: "c1")
    /// ```
    public nonisolated func get<Source: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, Relations.ToMany, K>>, of id: Source.ID
    ) async -> [Target] {
        // A key path is immutable; it is not marked Sendable only because its root type may not be.
        nonisolated(unsafe) let keyPath = keyPath
        return await offPool {
            let context = self.context
            return context.ids(of: id, keyPath).compactMap { context.entity(Target.self, id: $0) }
        }
    }

    /// The entity a to-one relation of `id` links to, if it is stored (background get).
    public nonisolated func get<Source: EntityModelProtocol, Target, D, K>(
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, Relations.ToOne, K>>, of id: Source.ID
    ) async -> Target? {
        // A key path is immutable; it is not marked Sendable only because its root type may not be.
        nonisolated(unsafe) let keyPath = keyPath
        return await offPool {
            let context = self.context
            return context.ids(of: id, keyPath).first.flatMap { context.entity(Target.self, id: $0) }
        }
    }

    /// Saves one relation value of the entity `id` in one write (background set): `.ids`,
    /// `.relation`, `.appending(…)`, `.null`… with the same meaning as in a save, without
    /// touching the entity itself (which need not be stored).
    ///
    /// ```swift
    /// try await store.set(\Chat.$users, of: "c1", to: .appending(ids: ["u7"]))
    /// ```
    public func set<Source: EntityModelProtocol, Target, D, C, K>(
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>, of id: Source.ID,
        to relation: Relation<Target, D, C, K>
    ) async throws {
        let descriptor = Source.descriptor(Source.relationKey(keyPath), to: Target.self)
        try await write { context in try context._saveRelation(relation, of: id, descriptor) }
    }
}
