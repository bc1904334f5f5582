/// What reads one table's part of a write's delta: its entities, and each relation it marked.
@usableFromInline
struct TableDeltaReaders: Sendable {
    /// Reads the entities (a ``TableChange`` without relations).
    @usableFromInline let entities: @Sendable () -> TableChange
    /// Read the relations, one each.
    @usableFromInline let relations: [@Sendable () -> RelationChange]
    /// How many entities were marked.
    @usableFromInline let entityMarks: Int
    /// How many links were marked in each relation of ``relations``.
    @usableFromInline let relationMarks: [Int]

    @inlinable
    init(entities: @escaping @Sendable () -> TableChange, relations: [@Sendable () -> RelationChange], entityMarks: Int, relationMarks: [Int]) {
        self.entities = entities
        self.relations = relations
        self.entityMarks = entityMarks
        self.relationMarks = relationMarks
    }
}

extension TableDeltaReaders {
    /// What reads `table`'s part of the write's delta (see
    /// ``Context/trackedDelta(valuesFrom:onEveryCore:)``): the places marked in `context` (whose
    /// table it is), with their values in `values`; `nil` when nothing of the type is marked.
    @inlinable
    init?<Entity: EntityModelProtocol>(marksOf table: EntityTable<Entity>, in context: Context, values: Context) {
        guard let ids = table.dirty else { return nil }
        var builder = RelationDeltaBuilder(context: context, values: values)
        try? Entity._relataVisitRelations(&builder)
        guard !ids.isEmpty || !builder.readers.isEmpty else { return nil }
        let source = values.table(Entity.self)
        let entities: @Sendable () -> TableChange = {
            var entries = ContiguousArray<(id: Entity.ID, value: Entity?)>()
            entries.reserveCapacity(ids.count)
            for id in ids { entries.append((id, source?.entities[id])) }
            let stored = entries
            return TableChange(
                type: ObjectIdentifier(Entity.self), changes: TableDelta<Entity>(entities: stored, ids: ids), relations: [],
                bindEntities: { context in
                    guard !stored.isEmpty else { return {} }
                    let table = context.mutableTable(Entity.self)
                    // No `reserveCapacity`: reserving a little more at every write reallocates
                    // the whole table each time, where growing by itself doubles it.
                    return {
                        table.wroteEntities = true
                        for (id, value) in stored {
                            // An erasure takes the entity's time out of the order too (see `setEntity`).
                            if value == nil, table.saveOrder != nil { table.setSavedAt(nil, for: id) }
                            if table.faulter == nil { table.updateIndexes(old: table.entities[id], new: value) }
                            table.entities[id] = value
                        }
                    }
                },
                entityCount: stored.count
            )
        }
        self.init(entities: entities, relations: builder.readers, entityMarks: ids.count, relationMarks: builder.marks)
    }
}
