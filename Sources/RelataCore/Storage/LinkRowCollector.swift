import Foundation

/// The link rows of each to-many relation of `Entity` that a delta touched, compared with the
/// state before the write: a row is written when its link or a position changed.
@usableFromInline
struct LinkRowCollector<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let delta: StoreDelta
    @usableFromInline let after: Context
    @usableFromInline let before: Context
    @usableFromInline let type: String
    @usableFromInline var upserted: [LinkRecord] = []
    @usableFromInline var deleted: [LinkKey] = []

    @inlinable
    init(delta: StoreDelta, after: Context, before: Context) {
        self.delta = delta
        self.after = after
        self.before = before
        self.type = EntitySchema.storageName(of: Entity.self)
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        // To-one links are kept in the entity rows (``ToOneLinkReader``).
        guard descriptor.key.toMany else { return }
        switch descriptor.storedSide {
        case .derived: return
        case .pair: try collectPairs(descriptor)
        case .own: try collectOwn(descriptor)
        }
    }

    /// One row per link of a one-way to-many relation (or one that is its own inverse).
    @inlinable
    mutating func collectOwn<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        guard let entries = delta.relation(descriptor.key, of: S.self, to: T.self)?.toMany else { return }
        let key = descriptor.key
        let now = after.table(S.self)?.existingLinkTable(key, T.ID.self)
        let old = before.table(S.self)?.existingLinkTable(key, T.ID.self)
        var pairs = Set<LinkPair<S.ID, T.ID>>(minimumCapacity: entries.count)
        for (source, target, _) in entries { pairs.insert(LinkPair(source: source, target: target)) }
        // The old lists of every source in one read, not one each.
        old?.ensure(pairs.map { $0.source })
        for pair in pairs {
            let new = now?.key(of: pair.target, in: pair.source)
            let previous = old?.list(of: pair.source)?.key(of: pair.target)
            try write(descriptor.name, pair.source, pair.target, linked: new != nil, wasLinked: previous != nil,
                      changed: new != previous, position: new, inversePosition: nil)
        }
    }

    /// One row per linked pair of a many-to-many relation stored on this side: the pairs the
    /// delta touched on either side, written when their link or either position changed.
    @inlinable
    mutating func collectPairs<S, T>(_ descriptor: RelationDescriptor<S, T>) throws {
        let key = descriptor.key, inverse = descriptor.inverse!
        var pairs = Set<LinkPair<S.ID, T.ID>>()
        for (source, target, _) in delta.relation(key, of: S.self, to: T.self)?.toMany ?? [] {
            pairs.insert(LinkPair(source: source, target: target))
        }
        for (source, target, _) in delta.relation(inverse, of: T.self, to: S.self)?.toMany ?? [] {
            pairs.insert(LinkPair(source: target, target: source))
        }
        guard !pairs.isEmpty else { return }
        typealias State = (linked: Bool, key: PositionKey?, inverseKey: PositionKey?)
        func state(in context: Context, _ pair: LinkPair<S.ID, T.ID>) -> State {
            let position = context.table(S.self)?.existingLinkTable(key, T.ID.self)?.key(of: pair.target, in: pair.source)
            let backward = inverse.toMany ? context.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
            return (position != nil, position, backward?.key(of: pair.source, in: pair.target))
        }
        // The lists of every pair's source and target read in one batch per side, not one each.
        let sources = pairs.map { $0.source }, targets = pairs.map { $0.target }
        for context in [after, before] {
            context.table(S.self)?.existingLinkTable(key, T.ID.self)?.ensure(sources)
            if inverse.toMany { context.table(T.self)?.existingLinkTable(inverse, S.ID.self)?.ensure(targets) }
        }
        for pair in pairs {
            let now = state(in: after, pair), previous = state(in: before, pair)
            try write(descriptor.name, pair.source, pair.target, linked: now.linked, wasLinked: previous.linked,
                      changed: now.key != previous.key || now.inverseKey != previous.inverseKey,
                      position: now.key, inversePosition: now.inverseKey)
        }
    }

    /// Appends the row of one link: written when it is linked and new or moved, removed when it
    /// was linked and is no more.
    @inlinable
    mutating func write<SourceID: Encodable, TargetID: Encodable>(
        _ relation: String, _ source: SourceID, _ target: TargetID, linked: Bool, wasLinked: Bool, changed: Bool,
        position: PositionKey?, inversePosition: PositionKey?
    ) throws {
        if linked {
            guard changed || !wasLinked else { return }
            upserted.append(
                LinkRecord(
                    type: type, relation: relation, source: try IDText.encode(source, of: type, relation: relation),
                    target: try IDText.encode(target, of: type, relation: relation),
                    position: position?.description, inversePosition: inversePosition?.description
                )
            )
        } else if wasLinked {
            deleted.append(
                LinkKey(
                    type: type, relation: relation, source: try IDText.encode(source, of: type, relation: relation),
                    target: try IDText.encode(target, of: type, relation: relation)
                )
            )
        }
    }
}
