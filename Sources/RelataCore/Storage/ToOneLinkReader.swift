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
    /// One per relation that this context holds links of: whether a source has a link.
    @usableFromInline var linkChecks: [@Sendable (Entity.ID) -> Bool] = []
    /// Sources whose row a delta touches through a link, except those in `known`.
    @usableFromInline var touchedSources = Set<Entity.ID>()
    /// Sources the caller has already (the entities the delta stores or erases).
    @usableFromInline let known: Set<Entity.ID>
    /// The state before the write, when the targets a source's links moved from are wanted.
    @usableFromInline let before: Context?
    /// One per relation, given `before`: reads the old links of a batch of sources into
    /// `before` at once (what ``rowLinks`` then looks up, source by source).
    @usableFromInline var readBefore: [@Sendable ([Entity.ID]) -> Void] = []
    /// One per relation, given `before`, asked after ``readBefore``: what the relation brings to
    /// a source's row (its link, the targets whose lists moved, whether storage's link stays),
    /// the new and the old target and the source's place each looked up once.
    @usableFromInline var rowLinks: [@Sendable (Entity.ID) throws -> ToOneRowLink] = []

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
        linkChecks.contains { $0(source) }
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
        // The place of `source` in the list of `target`, its to-one target now (`old`: its
        // target before the write): kept from its row when the write left both the link and the
        // list unread (it cannot have moved it).
        let position: @Sendable (S.ID, T.ID, T.ID?) -> PositionKey? = { source, target, old in
            guard let inverse else { return nil }
            let (held, key) = inverse.heldKey(of: source, in: target)
            if held { return key }
            if let stored = oldPlaces.keys[source], old == target { return stored }
            return inverse.key(of: source, in: target)
        }
        if let before {
            let oldInverse = descriptor.inverse.flatMap { inverse in
                inverse.toMany ? before.table(T.self)?.existingLinkTable(inverse, S.ID.self) : nil
            }
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
            let mutualToMany = descriptor.inverse?.toMany == true
            let rowLink: @Sendable (S.ID) throws -> ToOneRowLink = { source in
                let new = links?.target(of: source), old = oldLinks?.target(of: source)
                func key(_ target: T.ID) throws -> LinkTargetKey {
                    LinkTargetKey(type: sourceType, relation: relation, target: try IDText.encode(target, of: sourceType, relation: relation))
                }
                var link = ToOneRowLink(record: nil, moved: [], unchanged: nil)
                var place: PositionKey?
                if let new {
                    place = position(source, new, old)
                    let target = try key(new)
                    link.record = ToOneLinkRecord(relation: relation, target: target.target, inversePosition: place?.description)
                    if new != old {
                        // Another target (a new source's first): both lists changed, whatever the places.
                        link.moved = try [old.map(key), target].compactMap { $0 }
                    } else if place != (oldPlaces.keys[source] ?? oldInverse?.key(of: source, in: new)) {
                        // The same target: its list changed only because the source's place in it moved.
                        link.moved = [target]
                    }
                } else if let old {
                    link.moved = [try key(old)]
                }
                guard links != nil, oldLinks != nil, new == old else { return link }
                if new != nil, mutualToMany {
                    // A place only in a list of sources; the old one only as the old row gave it
                    // (the old list is not read for it).
                    if let stored = oldPlaces.keys[source], place == stored { link.unchanged = (relation, true) }
                } else {
                    link.unchanged = (relation, new != nil)
                }
                return link
            }
            if let rowLink = rowLink as? @Sendable (Entity.ID) throws -> ToOneRowLink { rowLinks.append(rowLink) }
        }
        guard let links else { return }
        let linked: @Sendable (S.ID) -> Bool = { source in links.target(of: source) != nil }
        if let linked = linked as? @Sendable (Entity.ID) -> Bool { linkChecks.append(linked) }
    }
}
