// A Store keeps two copies of its state (left-right). After a write, the copy that was published
// must catch up with the write: it receives the entities and links the write changed, as tracked,
// copied from the new state (no operation is re-derived).

/// The catch-up of the other copy after a Store write, in two phases: calling it reads what the
/// write changed from the new state (it may run on another thread while the write is persisted,
/// since nothing mutates that state any more); the function it returns applies what was read to
/// the other copy.
@usableFromInline
typealias CatchUpPreparation = () -> (inout Context) -> Void

extension Context {
    /// A function that brings a context equal to the state before tracking began up to this
    /// state, by copying what tracking marked: entities stored or erased, link lists of the
    /// sources that changed (with the backlinks of one-way relations), dynamic relationships.
    ///
    /// Take it before ``endTracking()``. Its first phase reads this context's tables, which must
    /// not be mutated afterwards (a published state is not).
    func trackedCopier() -> CatchUpPreparation {
        var preparations = storage.tables.compactMap { $0.trackedCopier() }
        if let dynamic = storage.dynamic, let dirty = dynamic.dirty, !dirty.isEmpty {
            preparations.append {
                let present = dirty.map { (link: $0, present: dynamic.contains($0)) }
                return { context in
                    for (link, present) in present {
                        if present {
                            context.mutableDynamicLinks().insert(link)
                        } else {
                            context.mutableDynamicLinks().remove(link)
                        }
                    }
                }
            }
        }
        return {
            let steps = preparations.map { $0() }
            return { context in
                for step in steps { step(&context) }
            }
        }
    }
}

extension EntityTable {
    @inlinable
    func makeTrackedCopier() -> CatchUpPreparation? {
        guard let ids = dirty else { return nil }
        var builder = TrackedLinkCopier<Entity>(table: self)
        try? Entity._relataVisitRelations(&builder)
        let preparations = builder.preparations
        guard !ids.isEmpty || !preparations.isEmpty else { return nil }
        return { [self] in
            let stored = ContiguousArray(ids.lazy.map { (id: $0, entity: self.entities[$0]) })
            let steps = preparations.map { $0() }
            return { context in
                if !stored.isEmpty {
                    let target = context.mutableTable(Entity.self)
                    target.entities.reserveCapacity(target.entities.count + stored.count)
                    for (id, entity) in stored { target.entities[id] = entity }
                }
                for step in steps { step(&context) }
            }
        }
    }
}

/// One catch-up preparation per relation of `Entity` whose links changed.
@usableFromInline
struct TrackedLinkCopier<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let table: EntityTable<Entity>
    @usableFromInline var preparations: [CatchUpPreparation] = []

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
        preparations.append {
            // Read from the new state: the position of each pair (to-many), the target of each
            // source (to-one), whether each pair is linked (for the backlinks of one-way relations).
            let positions = key.toMany ? dirty.map { links.many[$0.source]?.key(of: $0.target) } : []
            let targets = key.toMany ? [] : dirty.map { links.one[$0.source] }
            let linked = oneWay ? dirty.map { links.contains($0.target, in: $0.source, toMany: key.toMany) } : []
            return { context in
                let target = context.mutableTable(Entity.self).linkTable(key, T.ID.self)
                if key.toMany {
                    // Pair by pair: the other copy's lists are patched, not replaced, so the two
                    // copies never share a list buffer that the next write would copy whole.
                    for (pair, position) in zip(dirty, positions) {
                        if let position {
                            target.place(pair.target, in: pair.source, at: position)
                        } else {
                            target.remove(pair.target, from: pair.source, toMany: true)
                        }
                    }
                } else {
                    for (pair, new) in zip(dirty, targets) {
                        let source = pair.source
                        let old = target.one[source]
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
                for (pair, isLinked) in zip(dirty, linked) {
                    let source = unsafeBitCast(pair.source, to: S.ID.self)
                    if isLinked {
                        backlinks.insert(source, for: pair.target)
                    } else {
                        backlinks.remove(source, for: pair.target)
                    }
                }
            }
        }
    }
}
