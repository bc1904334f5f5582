/// One stored dynamic relationship: `source owns target`, or `source` and `target` freely related
/// (then `source` canonically precedes `target`, so a free pair has one form).
struct DynamicLink: Hashable, Sendable {
    enum Kind: String, Sendable {
        case owns, free
    }

    let kind: Kind
    let source: EntityReference
    let target: EntityReference

    init(_ kind: Kind, _ source: EntityReference, _ target: EntityReference) {
        self.kind = kind
        if kind == .free, EntityReference.canonicallyPrecedes(target, source) {
            (self.source, self.target) = (target, source)
        } else {
            (self.source, self.target) = (source, target)
        }
    }

    /// The stored form of `subject kind object`.
    init(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) {
        switch kind {
        case .owns: self.init(.owns, subject, object)
        case .ownedBy: self.init(.owns, object, subject)
        case .free: self.init(.free, subject, object)
        }
    }
}

/// The dynamic relationships of a context: what each entity owns, the owners of each (an index of
/// the same links, never stored twice), and the free pairs (indexed from both ends).
final class DynamicLinks: @unchecked Sendable {
    private(set) var owned: [EntityReference: Set<EntityReference>] = [:]
    private(set) var owners: [EntityReference: Set<EntityReference>] = [:]
    private(set) var free: [EntityReference: Set<EntityReference>] = [:]
    /// Links added or removed since tracking began (a Store write), or `nil` when not tracking.
    var dirty: Set<DynamicLink>?
    /// The number of `owns` links whose target's type can reach a `.deny` relation: while there
    /// are none, erasures need no `.deny` walk on account of dynamic ownership.
    private(set) var denyReachableOwnedCount = 0

    init() {}

    func clone() -> DynamicLinks {
        let copy = DynamicLinks()
        copy.owned = owned
        copy.owners = owners
        copy.free = free
        copy.dirty = dirty
        copy.denyReachableOwnedCount = denyReachableOwnedCount
        return copy
    }

    var isEmpty: Bool { owned.isEmpty && free.isEmpty }

    func contains(_ link: DynamicLink) -> Bool {
        switch link.kind {
        case .owns: owned[link.source]?.contains(link.target) ?? false
        case .free: free[link.source]?.contains(link.target) ?? false
        }
    }

    /// Adds `link`; `false` if it was there.
    @discardableResult
    func insert(_ link: DynamicLink) -> Bool {
        switch link.kind {
        case .owns:
            guard owned[link.source, default: []].insert(link.target).inserted else { return false }
            owners[link.target, default: []].insert(link.source)
            if link.target.reachesDeny { denyReachableOwnedCount += 1 }
        case .free:
            guard free[link.source, default: []].insert(link.target).inserted else { return false }
            free[link.target, default: []].insert(link.source)
        }
        dirty?.insert(link)
        return true
    }

    /// Removes `link`; `false` if it was not there.
    @discardableResult
    func remove(_ link: DynamicLink) -> Bool {
        switch link.kind {
        case .owns:
            guard Self.remove(link.target, from: link.source, in: &owned) else { return false }
            Self.remove(link.source, from: link.target, in: &owners)
            if link.target.reachesDeny { denyReachableOwnedCount -= 1 }
        case .free:
            guard Self.remove(link.target, from: link.source, in: &free) else { return false }
            Self.remove(link.source, from: link.target, in: &free)
        }
        dirty?.insert(link)
        return true
    }

    @discardableResult
    private static func remove(
        _ element: EntityReference, from key: EntityReference, in index: inout [EntityReference: Set<EntityReference>]
    ) -> Bool {
        guard index[key]?.remove(element) != nil else { return false }
        if index[key]!.isEmpty { index[key] = nil }
        return true
    }

    /// Every link with `ref` at either end.
    func links(of ref: EntityReference) -> [DynamicLink] {
        var links: [DynamicLink] = []
        for target in owned[ref] ?? [] { links.append(DynamicLink(.owns, ref, target)) }
        for owner in owners[ref] ?? [] { links.append(DynamicLink(.owns, owner, ref)) }
        for other in free[ref] ?? [] { links.append(DynamicLink(.free, ref, other)) }
        return links
    }

    /// Every stored link, each once.
    var allLinks: Set<DynamicLink> {
        var links: Set<DynamicLink> = []
        for (owner, targets) in owned {
            for target in targets { links.insert(DynamicLink(.owns, owner, target)) }
        }
        for (a, others) in free {
            for b in others { links.insert(DynamicLink(.free, a, b)) }
        }
        return links
    }
}

extension DynamicLink {
    /// The stored row of this link.
    func record() throws -> DynamicLinkRecord {
        DynamicLinkRecord(
            kind: kind.rawValue, sourceType: EntitySchema.storageName(of: source.entityType), source: try source.idText(),
            targetType: EntitySchema.storageName(of: target.entityType), target: try target.idText()
        )
    }
}

extension DynamicLinks {
    /// Checks that both ends of every link are stored, that the owner index is exactly the
    /// inverse of the owned index, and that free pairs are indexed from both ends.
    func checkInvariants(in context: Context) throws {
        func broken(_ ref: EntityReference, _ relation: String, _ message: String) -> RelataError {
            RelataError(code: .invalidRelation, entityType: ref.typeName, id: "\(ref.id)", relation: relation, message: message)
        }
        for link in allLinks {
            for end in [link.source, link.target] where !end.exists(in: context) {
                throw broken(link.source, link.kind.rawValue, "links to \(link.target), but \(end) is not stored")
            }
        }
        var ownerLinks = 0
        for (target, sources) in owners {
            for source in sources where owned[source]?.contains(target) != true {
                throw broken(target, "ownedBy", "is indexed as owned by \(source), which does not own it")
            }
            ownerLinks += sources.count
        }
        guard ownerLinks == owned.values.reduce(0, { $0 + $1.count }) else {
            throw RelataError(code: .invalidRelation, entityType: "Context", relation: "owns", message: "the owner index misses links")
        }
        for (a, others) in free {
            for b in others where free[b]?.contains(a) != true {
                throw broken(a, "free", "is freely related to \(b), which is not freely related back")
            }
        }
    }
}
