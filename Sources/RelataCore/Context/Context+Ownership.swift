import Synchronization

// Ownership (`.cascadeOrphans`) and refusal (`.deny`) for the delete engine.

extension Context {
    /// Whether any entity links to `id` through a relation with the `.cascadeOrphans` rule.
    @usableFromInline
    func hasOwner<Target: EntityModelProtocol>(_: Target.Type, id: Target.ID) -> Bool {
        hasDynamicOwner(EntityReference(Target.self, id: id))
            || storage.tables.contains { $0.ownsTarget(Target.self, id: id, in: self, except: []) }
    }

    /// Throws when erasing `id` — or any entity its erasure would cascade to — is refused by a
    /// `.deny` relation that still has links. Reads only: nothing has changed when it throws.
    @usableFromInline
    func checkDeny<Entity: EntityModelProtocol>(_: Entity.Type, id: Entity.ID) throws {
        var checker = DenyChecker(context: self)
        try checker.check(Entity.self, id: id)
    }
}

/// Looks for a link to `target` through the `.cascadeOrphans` relations of `Source`, from a source
/// that is not in `except`.
struct OwnerFinder<Source: EntityModelProtocol, Target: EntityModelProtocol>: _RelationVisitor {
    let context: Context
    let target: Target.ID
    let except: Set<EntityReference>
    var found = false

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard !found, descriptor.deleteRule == .cascadeOrphans, T.self == Target.self else { return }
        let target = checkedCast(self.target, to: T.ID.self, in: descriptor.key.name)
        var owners: [S.ID] = []
        if let inverse = descriptor.inverse {
            owners = context.table(T.self)?.existingLinkTable(inverse, S.ID.self)?
                .targets(of: target, toMany: inverse.toMany) ?? []
        } else {
            let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: descriptor.key.ordinal)
            if let backlinks = context.table(T.self)?.backlinks[key] {
                owners = unsafeDowncast(backlinks, to: Backlinks<S, T>.self).sources(of: target)?.ids ?? []
            }
        }
        found = owners.contains { !except.contains(EntityReference(S.self, id: $0)) }
    }
}

/// Walks what erasing an entity would erase (cascades, and owned entities left without an owner
/// outside the walk) and throws at the first `.deny` relation that still links something.
struct DenyChecker {
    let context: Context
    /// Entities the walk erases, by type and id.
    var erased: Set<EntityReference> = []


    mutating func check<Entity: EntityModelProtocol>(_: Entity.Type, id: Entity.ID) throws {
        guard erased.insert(EntityReference(Entity.self, id: id)).inserted else { return }
        var visitor = DenyVisitor<Entity>(checker: self, id: id)
        try Entity._relataVisitRelations(&visitor)
        self = visitor.checker
        // Dynamically owned entities left without an owner outside the walk are erased too.
        context.ensureDynamicLinks(of: EntityReference(Entity.self, id: id))
        for owned in context.storage.dynamic?.owned[EntityReference(Entity.self, id: id)] ?? [] where owned.exists(in: context) {
            try checkIfOrphaned(owned.entityType, owned)
        }
    }

    private mutating func checkIfOrphaned<Owned: EntityModelProtocol>(_: Owned.Type, _ ref: EntityReference) throws {
        guard let id = ref.id(as: Owned.self), !hasOwner(Owned.self, id: id, besides: erased) else { return }
        try check(Owned.self, id: id)
    }
}

struct DenyVisitor<Entity: EntityModelProtocol>: _RelationVisitor {
    var checker: DenyChecker
    let id: Entity.ID

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let source = checkedCast(id, to: S.ID.self, in: descriptor.key.name)
        let targets = checker.context.table(S.self)?.existingLinkTable(descriptor.key, T.ID.self)?
            .targets(of: source, toMany: descriptor.key.toMany) ?? []
        guard !targets.isEmpty else { return }
        switch descriptor.deleteRule {
        case .deny:
            let blocking = targets.filter {
                !checker.erased.contains(EntityReference(T.self, id: $0))
            }
            guard blocking.isEmpty else {
                throw RelataError(
                    code: .deleteDenied, entityType: String(describing: S.self), id: "\(source)",
                    relation: descriptor.name,
                    message: "\(S.self) \"\(source)\" cannot be erased: \(descriptor.name) still links to "
                        + blocking.map { "\(T.self) \"\($0)\"" }.joined(separator: ", ")
                )
            }
        case .cascade:
            // Over storage, what the walk reads of the targets is read in one batch per kind.
            checker.context.prefetchErasure(of: T.self, ids: targets)
            for target in targets where checker.context.entity(T.self, id: target) != nil {
                try checker.check(T.self, id: target)
            }
        case .cascadeOrphans:
            for target in targets where checker.context.entity(T.self, id: target) != nil {
                // Conservative: an owned entity is walked when it would lose its last owner, i.e.
                // when every owner it has is itself being erased.
                if !checker.hasOwner(T.self, id: target, besides: checker.erased) {
                    try checker.check(T.self, id: target)
                }
            }
        case .nullify:
            return
        }
    }
}

extension DenyChecker {
    /// Whether `id` has an owner that is not in `erased`.
    func hasOwner<Target: EntityModelProtocol>(_: Target.Type, id: Target.ID, besides erased: Set<EntityReference>) -> Bool {
        context.ensureDynamicLinks(of: EntityReference(Target.self, id: id))
        return (context.storage.dynamic?.owners[EntityReference(Target.self, id: id)] ?? []).contains { !erased.contains($0) }
            || context.storage.tables.contains { $0.ownsTarget(Target.self, id: id, in: context, except: erased) }
    }
}

/// Which entity types can reach a `.deny` relation through their relations (cached per type), so
/// that deletes of the others skip the check.
@usableFromInline
enum DenyRules {
    private static let cache = Mutex<[ObjectIdentifier: Bool]>([:])

    @usableFromInline
    static func reachable<Entity: EntityModelProtocol>(from _: Entity.Type) -> Bool {
        let key = ObjectIdentifier(Entity.self)
        if let known = cache.withLock({ $0[key] }) { return known }
        var walker = DenyReachability()
        walker.walk(Entity.self)
        cache.withLock { $0[key] = walker.found }
        return walker.found
    }
}

/// Walks the relation graph of types (not entities) from one type.
struct DenyReachability {
    var visited: Set<ObjectIdentifier> = []
    var found = false

    mutating func walk<Entity: EntityModelProtocol>(_: Entity.Type) {
        guard !found, visited.insert(ObjectIdentifier(Entity.self)).inserted else { return }
        var visitor = Visitor(walker: self)
        try? Entity._relataVisitRelations(&visitor)
        self = visitor.walker
    }

    struct Visitor: _RelationVisitor {
        var walker: DenyReachability

        mutating func visit<S, T, D, C, K>(
            _ descriptor: RelationDescriptor<S, T>,
            _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
        ) throws {
            switch descriptor.deleteRule {
            case .deny: walker.found = true
            case .cascade, .cascadeOrphans: walker.walk(T.self)
            case .nullify: break
            }
        }
    }
}
