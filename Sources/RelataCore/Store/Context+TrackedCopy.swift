// A Store keeps two copies of its state (left-right). After a write, the copy that was published
// must catch up with the write: it receives the entities and links the write changed, as tracked,
// copied from the new state (no operation is re-derived).

extension Context {
    /// A function that brings a context equal to the state before tracking began up to this
    /// state, by copying what tracking marked: entities stored or erased, link lists of the
    /// sources that changed (with the backlinks of one-way relations), dynamic relationships.
    ///
    /// Take it before ``endTracking()``. The function reads this context's tables, which must not
    /// be mutated afterwards (a published state is not).
    func trackedCopier() -> (inout Context) -> Void {
        var steps = storage.tables.compactMap { $0.trackedCopier() }
        if let dynamic = storage.dynamic, let dirty = dynamic.dirty, !dirty.isEmpty {
            steps.append { context in
                for link in dirty {
                    if dynamic.contains(link) {
                        context.mutableDynamicLinks().insert(link)
                    } else {
                        context.mutableDynamicLinks().remove(link)
                    }
                }
            }
        }
        return { context in
            for step in steps { step(&context) }
        }
    }
}

extension EntityTable {
    @inlinable
    func makeTrackedCopier() -> ((inout Context) -> Void)? {
        guard let ids = dirty else { return nil }
        var builder = TrackedLinkCopier<Entity>(table: self)
        try? Entity._relataVisitRelations(&builder)
        let steps = builder.steps
        guard !ids.isEmpty || !steps.isEmpty else { return nil }
        return { [self] context in
            if !ids.isEmpty {
                let target = context.mutableTable(Entity.self)
                for id in ids { target.entities[id] = entities[id] }
            }
            for step in steps { step(&context) }
        }
    }
}

/// One copy step per relation of `Entity` whose links changed.
@usableFromInline
struct TrackedLinkCopier<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let table: EntityTable<Entity>
    @usableFromInline var steps: [(inout Context) -> Void] = []

    @inlinable
    init(table: EntityTable<Entity>) {
        self.table = table
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard let (links, dirty) = table.trackedLinks(descriptor.key, T.ID.self) else { return }
        let key = descriptor.key
        let oneWay = descriptor.inverse == nil
        steps.append { context in
            let target = context.mutableTable(Entity.self).linkTable(key, T.ID.self)
            if key.toMany {
                // Pair by pair: the other copy's lists are patched, not replaced, so the two
                // copies never share a list buffer that the next write would copy whole.
                for pair in dirty {
                    if let position = links.many[pair.source]?.key(of: pair.target) {
                        target.place(pair.target, in: pair.source, at: position)
                    } else {
                        target.remove(pair.target, from: pair.source, toMany: true)
                    }
                }
            } else {
                for pair in dirty {
                    let source = pair.source
                    let old = target.one[source], new = links.one[source]
                    guard old != new else { continue }
                    target.one[source] = new
                    // Replacing a one-way to-one target moves its backlink.
                    if oneWay, let old {
                        context.backlinks(descriptor).remove(unsafeBitCast(source, to: S.ID.self), for: old)
                    }
                }
            }
            guard oneWay else { return }
            let backlinks = context.backlinks(descriptor)
            for pair in dirty {
                let source = unsafeBitCast(pair.source, to: S.ID.self)
                if links.contains(pair.target, in: pair.source, toMany: key.toMany) {
                    backlinks.insert(source, for: pair.target)
                } else {
                    backlinks.remove(source, for: pair.target)
                }
            }
        }
    }
}
