// Which observed reads a commit can change: the region keys its delta touches (see `RegionKey`).

/// A part of a ``StoreDelta`` that names the region keys it touches.
@usableFromInline
protocol RegionTouching {
    func addTouchedKeys(to keys: inout Set<RegionKey>)
}

extension TableDelta: RegionTouching {
    @usableFromInline
    func addTouchedKeys(to keys: inout Set<RegionKey>) {
        let type = ObjectIdentifier(Entity.self)
        // An entry may add or erase an entity: the type's ids and count may change.
        if !entities.isEmpty {
            keys.insert(.type(type))
            keys.insert(.watched(type))
        }
        for (id, _) in entities { keys.insert(.entity(type, AnyHashable(id))) }
    }
}

extension RelationDelta: RegionTouching {
    @usableFromInline
    func addTouchedKeys(to keys: inout Set<RegionKey>) {
        let type = ObjectIdentifier(Source.self)
        let ordinal = descriptor.key.ordinal
        let oneWay = descriptor.inverse == nil
        if oneWay, !toOne.isEmpty { keys.insert(.allBacklinks(type, ordinal)) }
        for (source, target) in toOne {
            keys.insert(.links(type, ordinal, AnyHashable(source)))
            if oneWay, let target { keys.insert(.backlinks(type, ordinal, AnyHashable(target))) }
        }
        for (source, target, _) in toMany {
            keys.insert(.links(type, ordinal, AnyHashable(source)))
            if oneWay { keys.insert(.backlinks(type, ordinal, AnyHashable(target))) }
        }
    }
}

extension StoreDelta {
    /// The region keys this delta touches: an observed closure that read none of them has the
    /// same value after the commit.
    ///
    /// - Complexity: O(entries).
    var touchedKeys: Set<RegionKey> {
        var keys = Set<RegionKey>()
        for table in tables {
            (table.changes as? any RegionTouching)?.addTouchedKeys(to: &keys)
            for relation in table.relations { (relation.changes as? any RegionTouching)?.addTouchedKeys(to: &keys) }
        }
        if !dynamicLinks.isEmpty { keys.insert(.dynamic) }
        return keys
    }
}
