// A Store write compares some of its rows with the state before it (`trackedChanges(since:)`):
// rows that may go (an entity erased, a to-one link left on an id that has no entity) and link
// rows (to-many relations). A write that only adds entities and to-one links needs neither, so
// it does not wait for the other copy of the state to catch up (see `Store.write`).

extension Context {
    /// Whether the rows tracking marked need the state before the write to be told apart.
    /// Call before ``endTracking()``.
    func trackedChangesNeedBase() -> Bool {
        if let dirty = storage.dynamic?.dirty, !dirty.isEmpty { return true }
        return storage.tables.contains { $0.trackedChangesNeedBase(in: self) }
    }
}

extension EntityTable {
    /// Whether this table's tracked rows need the state before the write (see
    /// `Context.trackedChangesNeedBase()`).
    @inlinable
    func changesNeedBase(in context: Context) -> Bool {
        if let dirty, dirty.contains(where: { entities[$0] == nil }) { return true }
        var finder = BaseNeedFinder<Entity>(context: context, table: self)
        try? Entity._relataVisitRelations(&finder)
        return finder.found
    }
}

/// Finds a relation of `Entity` whose tracked links need the state before the write: a to-many
/// relation kept in link rows, or a to-one relation kept in the rows of sources of which one has
/// no entity (its row may go).
@usableFromInline
struct BaseNeedFinder<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let table: EntityTable<Entity>
    @usableFromInline var found = false

    @inlinable
    init(context: Context, table: EntityTable<Entity>) {
        self.context = context
        self.table = table
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard !found, descriptor.storedSide != .derived else { return }
        let forward = table.existingLinkTable(descriptor.key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let backward = descriptor.inverse.flatMap { context.table(T.self)?.existingLinkTable($0, Entity.ID.self) }
        if descriptor.key.toMany {
            found = !(forward?.dirty?.isEmpty ?? true) || !(backward?.dirty?.isEmpty ?? true)
        } else {
            let entities = table.entities
            found = forward?.dirty?.contains { entities[$0.source] == nil } ?? false
                || backward?.dirty?.contains { entities[$0.target] == nil } ?? false
        }
    }
}
