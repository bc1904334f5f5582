import OrderedCollections

/// Link writes: every change to a relation also writes the other side (the declared inverse of a
/// mutual relation, or the backlink index of a one-way relation), so the two never disagree.
extension Context {
    /// Writes the side of the link that `target` holds (inverse or backlink) for `source`.
    @inlinable
    mutating func addOtherSide<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, target: T.ID, source: S.ID
    ) {
        guard let inverse = d.inverse else {
            backlinks(d).insert(source, for: target)
            return
        }
        let table = mutableTable(T.self).linkTable(inverse, S.ID.self)
        if inverse.toMany {
            table.many[target, default: []].append(source)  // no-op when already linked
        } else if let displaced = table.setOne(source, for: target) {
            // One-to-one or many-to-one: `target` left `displaced`, which loses its link to it.
            mutableTable(S.self).linkTable(d.key, T.ID.self).remove(target, from: displaced, toMany: d.key.toMany)
        }
    }

    /// Removes the side of the link that `target` holds for `source`.
    @inlinable
    mutating func removeOtherSide<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, target: T.ID, source: S.ID
    ) {
        guard let inverse = d.inverse else {
            backlinks(d).remove(source, for: target)
            return
        }
        mutableTable(T.self).linkTable(inverse, S.ID.self).remove(source, from: target, toMany: inverse.toMany)
    }

    @inlinable
    mutating func backlinks<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> Backlinks<S, T> {
        let table = mutableTable(T.self)
        let key = BacklinkKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
        if let existing = table.backlinks[key] {
            return unsafeDowncast(existing, to: Backlinks<S, T>.self)
        }
        let created = Backlinks<S, T>(key: d.key)
        table.backlinks[key] = created
        return created
    }

    /// Sets the links of `source` through `d` to `targets` (or appends them), with the other sides.
    @inlinable
    mutating func link<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, to targets: [T.ID], appending: Bool
    ) {
        if !d.key.toMany {
            guard let target = targets.last else { return }
            linkOne(d, source: source, to: target)
            return
        }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        if appending || table.many[source] == nil {
            for target in targets where table.many[source, default: []].append(target).inserted {
                addOtherSide(d, target: target, source: source)
            }
            return
        }
        let old = table.many[source]!
        let new = OrderedSet(targets)
        table.many[source] = new.isEmpty ? nil : new
        for target in old where !new.contains(target) {
            removeOtherSide(d, target: target, source: source)
        }
        for target in new where !old.contains(target) {
            addOtherSide(d, target: target, source: source)
        }
    }

    /// Sets the to-one link of `source` through `d` to `target`, with the other sides.
    @inlinable
    mutating func linkOne<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, to target: T.ID
    ) {
        guard !d.key.toMany else {
            link(d, source: source, to: [target], appending: false)
            return
        }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        guard let previous = table.one.updateValue(target, forKey: source) else {
            addOtherSide(d, target: target, source: source)
            return
        }
        guard previous != target else { return }
        removeOtherSide(d, target: previous, source: source)
        addOtherSide(d, target: target, source: source)
    }

    /// Removes every link of `source` through `d`, with the other sides; returns the old targets.
    @inlinable
    @discardableResult
    mutating func unlinkAll<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID
    ) -> [T.ID] {
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        let old = table.removeAll(from: source, toMany: d.key.toMany)
        for target in old {
            removeOtherSide(d, target: target, source: source)
        }
        return old
    }

    /// Removes the links of `source` through `d` to `targets`, with the other sides.
    @inlinable
    mutating func unlink<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, from targets: [T.ID]
    ) {
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        for target in targets {
            table.remove(target, from: source, toMany: d.key.toMany)
            removeOtherSide(d, target: target, source: source)
        }
    }
}
