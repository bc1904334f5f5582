import Foundation

/// Reads the to-one links that `Entity` keeps in its entity rows: one reader per to-one relation
/// stored on this side (one-way, or the side that stores a mutual pair), and, given a delta,
/// the sources whose row it touches (a to-one link set or removed, or a position in the inverse
/// to-many list moved).
@usableFromInline
struct ToOneLinkReader<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let table: EntityTable<Entity>?
    @usableFromInline let delta: StoreDelta?
    /// One per relation: appends the link of a source to the links of its row, and returns
    /// whether the source has one.
    @usableFromInline var writers: [@Sendable (Entity.ID, inout [ToOneLinkRecord]) throws -> Bool] = []
    /// Sources whose row a delta touches through a link, except those in `known`.
    @usableFromInline var touchedSources = Set<Entity.ID>()
    /// Sources the caller has already (the entities the delta stores or erases).
    @usableFromInline let known: Set<Entity.ID>
    /// The state before the write, when the targets a source's links moved from are wanted.
    @usableFromInline let before: Context?
    /// One per relation, given `before`: the targets whose sources a source's link changed (its
    /// old and new target, or its target when its place in the target's list moved).
    @usableFromInline var movedTargets: [@Sendable (Entity.ID) throws -> [LinkTargetKey]] = []
    /// One per relation, given `before`: reads the old links of a batch of sources into
    /// `before` at once (what ``movedTargets`` then looks up, source by source).
    @usableFromInline var readBefore: [@Sendable ([Entity.ID]) -> Void] = []
    /// One per relation, given `before`, asked after ``readBefore``: the relation's name when a
    /// source's link is the one storage held — the same target at the same place, or none
    /// before and after — as far as the old rows tell for certain, and whether there is a link;
    /// `nil` otherwise.
    @usableFromInline var unchanged: [@Sendable (Entity.ID) -> (relation: String, linked: Bool)?] = []

    @inlinable
    init(context: Context, table: EntityTable<Entity>?, delta: StoreDelta?, known: Set<Entity.ID> = [], before: Context? = nil) {
        self.context = context
        self.table = table
        self.delta = delta
        self.known = known
        self.before = before
    }

    /// Whether `source` has a to-one link kept in its row.
    @inlinable
    func hasLinks(_ source: Entity.ID) -> Bool {
        var scratch: [ToOneLinkRecord] = []
        return writers.contains { (try? $0(source, &scratch)) == true }
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        guard !key.toMany, descriptor.storedSide != .derived else { return }
        let links = context.table(S.self)?.existingLinkTable(key, T.ID.self)
        let inverse = descriptor.inverse.flatMap { inverse in
            inverse.toMany ? context.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
        }
        if let delta {
            // `S` is `Entity` (these are its relations): the sources are noted through a closure
            // typed for `Entity`, cast once, never a collection cast element by element.
            var found = Set<Entity.ID>()
            let known = known
            let noteEntity: (Entity.ID) -> Void = { source in
                if !known.contains(source) { found.insert(source) }
            }
            if let note = noteEntity as? (S.ID) -> Void {
                for (source, _) in delta.relation(key, of: S.self, to: T.self)?.toOne ?? [] { note(source) }
                if let inverseKey = descriptor.inverse, let backward = delta.relation(inverseKey, of: T.self, to: S.self) {
                    // A moved position in the inverse list is kept in this side's row.
                    for (_, source, _) in backward.toMany { note(source) }
                    for case (_, let source?) in backward.toOne { note(source) }
                }
            }
            touchedSources.formUnion(found)
        }
        let relation = descriptor.name
        let sourceType = EntitySchema.storageName(of: S.self)
        let oldLinks = before?.table(S.self)?.existingLinkTable(key, T.ID.self)
        // The stored places in the old lists, from the sources' rows (so the old list is not
        // read for them).
        let oldPlaces = StoredPlaces<S.ID>()
        // The place of `source` in the list of `target`, its to-one target now: kept from its
        // row when the write left both the link and the list unread (it cannot have moved it).
        let position: @Sendable (S.ID, T.ID) -> PositionKey? = { source, target in
            guard let inverse else { return nil }
            if !inverse.holdsKey(of: source, in: target), let stored = oldPlaces.keys[source], oldLinks?.target(of: source) == target {
                return stored
            }
            return inverse.key(of: source, in: target)
        }
        if let before {
            let oldInverse = descriptor.inverse.flatMap { inverse in
                inverse.toMany ? before.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
            }
            let moved: @Sendable (S.ID) throws -> [LinkTargetKey] = { source in
                let new = links?.target(of: source), old = oldLinks?.target(of: source)
                func key(_ target: T.ID) throws -> LinkTargetKey {
                    LinkTargetKey(type: sourceType, relation: relation, target: try IDText.encode(target, of: sourceType, relation: relation))
                }
                // Another target (a new source's first): both lists changed, whatever the places.
                guard new == old else { return try [old, new].compactMap { try $0.map(key) } }
                // The same target: its list changed only if the source's place in it moved.
                guard let new, position(source, new) != (oldPlaces.keys[source] ?? oldInverse?.key(of: source, in: new)) else { return [] }
                return [try key(new)]
            }
            if let moved = moved as? @Sendable (Entity.ID) throws -> [LinkTargetKey] { movedTargets.append(moved) }
            let oldEntities = oldInverse == nil ? nil : before.table(S.self)
            let read: @Sendable ([S.ID]) -> Void = { sources in
                guard let oldEntities, let faulter = oldEntities.faulter, let oldLinks else {
                    oldLinks?.ensure(sources)
                    return
                }
                let unread = Array(Set(sources.filter { !oldLinks.loaded.contains($0) }))
                guard !unread.isEmpty, let rows = faulter.rows(unread) else { return }
                // The rows hold every to-one link of the sources: held from now.
                for fill in faulter.rowLinks { fill(oldEntities, unread, rows) }
                for row in rows {
                    guard let link = row.toOne.first(where: { $0.relation == relation }),
                        let key = link.inversePosition.flatMap(PositionKey.init), let source = try? IDText.decode(row.id, as: S.ID.self)
                    else { continue }
                    oldPlaces.keys[source] = key
                }
            }
            if let read = read as? @Sendable ([Entity.ID]) -> Void { readBefore.append(read) }
            let same: @Sendable (S.ID) -> (relation: String, linked: Bool)? = { source in
                guard let links, let oldLinks else { return nil }
                let new = links.target(of: source)
                guard new == oldLinks.target(of: source) else { return nil }
                // A place only in a list of sources (an inverse to-many relation).
                guard let new, descriptor.inverse?.toMany == true else { return (relation, new != nil) }
                // The old place only as the old row gave it (the old list is not read for it).
                guard let old = oldPlaces.keys[source] else { return nil }
                return position(source, new) == old ? (relation, true) : nil
            }
            if let same = same as? @Sendable (Entity.ID) -> (relation: String, linked: Bool)? { unchanged.append(same) }
        }
        guard let links else { return }
        let writer: @Sendable (S.ID, inout [ToOneLinkRecord]) throws -> Bool = { source, links_ in
            guard let target = links.target(of: source) else { return false }
            links_.append(
                ToOneLinkRecord(
                    relation: relation, target: try IDText.encode(target, of: sourceType, relation: relation),
                    inversePosition: position(source, target)?.description
                )
            )
            return true
        }
        if let writer = writer as? @Sendable (Entity.ID, inout [ToOneLinkRecord]) throws -> Bool { writers.append(writer) }
    }
}
