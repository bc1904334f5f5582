import Synchronization

/// What a context over storage gives the tables of `Entity` so that they read what they do not
/// hold: the reads of the type, and one step per relation that gives the relation's link table
/// (either side, see ``OverlayReads/links(_:withTargets:)``) and, for a one-way relation, the
/// backlink index in its target's table their readers.
///
/// Made once per type and shared by every context: the reads are closures that take the base of
/// the context asking, so a context costs one small faulter per table, not the closures.
@usableFromInline
final class OverlayPlan<Entity: EntityModelProtocol>: @unchecked Sendable {
    @usableFromInline let entities: EntityReads<Entity>
    /// One per relation of `Entity`.
    @usableFromInline var steps: [(inout Context, ContextBase) -> Void] = []

    /// Inlinable, so that the reads are made — and specialized — in the model's module: made in
    /// this module, they would run as unspecialized generic code (a type metadata lookup per call).
    @inlinable
    init() {
        entities = OverlayReads.entities(Entity.self)
        var builder = Builder(plan: self)
        try? Entity._relataVisitRelations(&builder)
    }

    /// The plan of `Entity`, made on first use.
    @inlinable
    static var shared: OverlayPlan<Entity> {
        let key = ObjectIdentifier(Entity.self)
        if let plan = OverlayPlans.made.withLock({ $0[key] }) { return unsafeDowncast(plan, to: OverlayPlan<Entity>.self) }
        // Made outside the lock (it visits the relations); a plan made twice at once is the same.
        let plan = OverlayPlan<Entity>()
        return OverlayPlans.made.withLock { made in
            if let first = made[key] { return unsafeDowncast(first, to: OverlayPlan<Entity>.self) }
            made[key] = plan
            return plan
        }
    }

    /// Gives the tables of `Entity` in `context` (its entities, the links of its relations, the
    /// backlinks of its one-way relations in their targets' tables) what reads them from `base`.
    /// Called through the type's ``_EntityStoreDescriptor``, specialized in the model's module.
    @inlinable
    func install(in context: inout Context, over base: ContextBase) {
        do {
            // Scoped: a reference held while the steps run would make them copy the table.
            let table = context.mutableTable(Entity.self)
            table.faulter = EntityFaulter(base: base, reads: entities)
            // One link table per relation, made by the steps in their order.
            table.links.reserveCapacity(steps.count)
        }
        for step in steps { step(&context, base) }
    }

    @usableFromInline
    struct Builder: _RelationVisitor {
        @usableFromInline let plan: OverlayPlan<Entity>

        @inlinable
        init(plan: OverlayPlan<Entity>) {
            self.plan = plan
        }

        @inlinable
        mutating func visit<S, T, D, C, K>(_ descriptor: RelationDescriptor<S, T>, _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>) throws {
            let reads = LinkReads<S.ID, T.ID>(
                read: OverlayReads.links(descriptor, withTargets: false)!, readWithTargets: OverlayReads.links(descriptor, withTargets: true),
                page: OverlayReads.linkPage(descriptor), count: OverlayReads.linkCount(descriptor), tails: OverlayReads.linkTails(descriptor)
            )
            if !descriptor.key.toMany, descriptor.storedSide != .derived, let entities = plan.entities as? EntityReads<S> {
                // The entity rows hold these links: reading an entity reads its links too.
                entities.rowLinks.append(OverlayReads.rowLinks(descriptor))
            }
            let backlinks = descriptor.inverse == nil ? OverlayReads.backlinks(descriptor) : nil
            plan.steps.append { context, base in
                context.mutableTable(S.self).linkTable(descriptor.key, T.ID.self).faulter = LinkFaulter(base: base, reads: reads)
                if let backlinks { context.backlinks(descriptor).faulter = BacklinkFaulter(base: base, load: backlinks) }
            }
        }
    }
}

/// The plans made, by entity type.
@usableFromInline
enum OverlayPlans {
    @usableFromInline static let made = Mutex<[ObjectIdentifier: AnyObject]>([:])
}
