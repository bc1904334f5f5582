// A Store keeps two copies of its state (left-right). After a write, the other copy must catch up
// with it when next needed (see `PublishedContext`): it receives the entities and links the write
// changed, as tracked, copied from the new state (no operation is re-derived).

/// The catch-up of the other copy after a Store write, in phases. Calling a preparation reads
/// what the write changed from the new state (it may run on another thread while the write is
/// persisted, since nothing mutates that state any more). Each step it returns then finds, on the
/// other copy, the tables it writes (making them unique to that copy), and returns the work that
/// writes them: works write disjoint tables (so they could run on several threads). A step must
/// not retain an entity table (see `Context.mutableTable`).
@usableFromInline
typealias CatchUpPreparation = () -> [CatchUpStep]

/// See ``CatchUpPreparation``.
@usableFromInline
typealias CatchUpStep = (inout Context) -> () -> Void

extension Context {
    /// A function that brings a context equal to the state before tracking began up to this
    /// state, by copying what tracking marked: entities stored or erased, link lists of the
    /// sources that changed (with the backlinks of one-way relations), dynamic relationships.
    ///
    /// Take it before ``endTracking()``. Calling it reads this context's tables, which must not
    /// be mutated afterwards (a published state is not); the function it returns applies what
    /// was read to the other copy.
    func trackedCopier() -> () -> CatchUp {
        var preparations = storage.tables.compactMap { $0.trackedCopier() }
        if let dynamic = storage.dynamic, let dirty = dynamic.dirty, !dirty.isEmpty {
            preparations.append {
                let present = dirty.map { (link: $0, present: dynamic.contains($0)) }
                return [
                    { context in
                        let links = context.mutableDynamicLinks()
                        return {
                            for (link, present) in present {
                                if present { links.insert(link) } else { links.remove(link) }
                            }
                        }
                    }
                ]
            }
        }
        return { CatchUp(steps: preparations.flatMap { $0() }) }
    }
}

/// What a Store write's catch-up read from the new state, ready to be applied to the other copy.
struct CatchUp {
    var steps: [CatchUpStep] = []

    /// Applies the catch-up to `context`: binds every table the works write, then runs them (on
    /// the writer's thread, or on a reader's background catch-up; see `PublishedContext`).
    func apply(to context: inout Context) {
        let works = steps.map { $0(&context) }
        for work in works { work() }
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
            var steps = preparations.map { $0() }
            if !ids.isEmpty {
                let stored = ContiguousArray(ids.lazy.map { (id: $0, entity: self.entities[$0]) })
                steps.append { context in
                    // Not retained: a strong reference would make the table look shared to the
                    // steps bound after this one, which would then copy it. `context` owns it
                    // while the works run.
                    unowned(unsafe) let target = context.mutableTable(Entity.self)
                    return {
                        target.entities.reserveCapacity(target.entities.count + stored.count)
                        for (id, entity) in stored { target.entities[id] = entity }
                    }
                }
            }
            return steps
        }
    }
}

/// One catch-up preparation per relation of `Entity` whose links changed.
@usableFromInline
struct TrackedLinkCopier<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let table: EntityTable<Entity>
    @usableFromInline var preparations: [() -> CatchUpStep] = []

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
                // A one-way relation's backlinks live in the target type's table.
                let backlinks = oneWay ? context.backlinks(descriptor) : nil
                return {
                    if key.toMany {
                        // Pair by pair: the other copy's lists are patched, not replaced, so the
                        // two copies never share a list buffer that the next write would copy whole.
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
                            if let backlinks, let old {
                                backlinks.remove(unsafeBitCast(source, to: S.ID.self), for: old)
                            }
                        }
                    }
                    guard let backlinks else { return }
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
}
