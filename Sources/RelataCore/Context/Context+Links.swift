/// Link writes: every change to a relation also writes the other side (the declared inverse of a
/// mutual relation, or the backlink index of a one-way relation), so the two never disagree.
///
/// To-many sides are ordered by position keys (``PositionKey``): a new link goes at the end, an
/// inverse link at the end of the inverse relation, unless an explicit key is given (a ChangeSet
/// being replayed).
extension Context {
    /// Writes the side of the link that `target` holds (inverse or backlink) for `source`.
    ///
    /// - Parameter key: The position in the inverse to-many relation; `nil` appends at the end.
    /// - Returns: The key written in the inverse to-many relation, if one was.
    @inlinable
    @discardableResult
    mutating func addOtherSide<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, target: T.ID, source: S.ID, key: PositionKey? = nil
    ) -> PositionKey? {
        guard let inverse = d.inverse else {
            // Every caller made the link just now: `source` is not among `target`'s sources.
            backlinks(d).insertNew(source, for: target)
            return nil
        }
        let table = mutableTable(T.self).linkTable(inverse, S.ID.self)
        if inverse.toMany {
            if let key {
                table.place(source, in: target, at: key)
                return key
            }
            // `source` was not linked to `target` (the link was just made): appended unread; in a
            // Store write that records no ChangeSet, over a server (or, over SQLite, past the
            // first `eagerTailReads` appends: a bulk write), without reading the list's tail either.
            var deferTail = false
            if storage.base != nil, storage.isTracking, storage.recorder == nil {
                deferTail = storage.base!.batchesTails || storage.write.eagerTailReads >= Self.eagerTailReads
                if !deferTail { storage.write.eagerTailReads += 1 }
            }
            let key = table.appendNew(source, to: target, using: &storage.generator, deferTail: deferTail)
            if deferTail, table.write?.provisional.isEmpty == false {
                let name = RelationKey(source: ObjectIdentifier(T.self), ordinal: inverse.ordinal)
                if storage.write.provisionalTails[name] == nil {
                    storage.write.provisionalTails[name] = DeferredRead(
                        resolve: { $0.mutableTable(T.self).linkTable(inverse, S.ID.self).resolveProvisionalTails() },
                        plan: { $0.mutableTable(T.self).linkTable(inverse, S.ID.self).plannedProvisionalTails }
                    )
                }
            }
            return key
        }
        if let displaced = table.setOne(source, for: target) {
            // One-to-one or many-to-one: `target` left `displaced`, which loses its link to it.
            mutableTable(S.self).linkTable(d.key, T.ID.self).remove(target, from: displaced, toMany: d.key.toMany)
        }
        return nil
    }

    /// How many appends of a Store write over SQLite read their list's tail on the spot before
    /// the rest are batched (a point write reads one tail; a bulk write reads them in one
    /// statement per relation).
    @usableFromInline static let eagerTailReads = 32

    /// Removes the side of the link that `target` holds for `source`.
    @inlinable
    mutating func removeOtherSide<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, target: T.ID, source: S.ID
    ) {
        guard let inverse = d.inverse else {
            backlinks(d).remove(source, for: target)
            return
        }
        let table = mutableTable(T.self).linkTable(inverse, S.ID.self)
        // In a Store write, a source leaves a long list without the list being read: `d` is
        // to-one, so storage has it in that list alone.
        if inverse.toMany, !d.key.toMany, storage.isTracking, storage.recorder == nil, table.removeWithoutReading(source, from: target) {
            return
        }
        table.remove(source, from: target, toMany: inverse.toMany)
    }

    @inlinable
    mutating func backlinks<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> Backlinks<S, T> {
        let table = mutableTable(T.self)
        let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
        // A type has the backlinks of a few relations: compared in turn, not hashed (a hash per
        // link write was a twentieth of an in-memory save's hashing).
        if table.backlinks.count <= 4 {
            for (existingKey, existing) in table.backlinks where existingKey == key {
                return unsafeDowncast(existing, to: Backlinks<S, T>.self)
            }
        } else if let existing = table.backlinks[key] {
            return unsafeDowncast(existing, to: Backlinks<S, T>.self)
        }
        let created = Backlinks<S, T>(descriptor: d)
        table.backlinks[key] = created
        return created
    }

    /// Sets the links of `source` through `d` to `targets` in this order (or appends them), with
    /// the other sides. Replacing keeps the keys of the longest run that kept its order.
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
        if appending || table.list(of: source) == nil {
            for target in targets {
                guard let key = table.append(target, to: source, using: &storage.generator) else { continue }
                let inverseKey = addOtherSide(d, target: target, source: source)
                recordLink(d, source: source, target: target, key: key, inverseKey: inverseKey)
            }
            return
        }
        let replacement = table.replace(source, with: targets, using: &storage.generator)
        for target in replacement.removed {
            removeOtherSide(d, target: target, source: source)
            recordUnlink(d, source: source, target: target)
        }
        for (target, key) in replacement.moved {
            recordMove(d, source: source, target: target, key: key)
        }
        for (target, key) in replacement.added {
            let inverseKey = addOtherSide(d, target: target, source: source)
            recordLink(d, source: source, target: target, key: key, inverseKey: inverseKey)
        }
    }

    /// Sets the to-one link of `source` through `d` to `target`, with the other sides.
    ///
    /// - Parameter inverseKey: The position in the inverse to-many relation; `nil` appends.
    @inlinable
    mutating func linkOne<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, to target: T.ID, inverseKey: PositionKey? = nil
    ) {
        guard !d.key.toMany else {
            link(d, source: source, to: [target], appending: false)
            return
        }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        if table.faulter != nil, !table.loaded.contains(source), linkWithoutReading(d, table, source: source, to: target, inverseKey: inverseKey) {
            return
        }
        // One lookup: the old target comes back from the update.
        table.ensure(source)
        let previous = table.one.updateValue(target, forKey: source)
        guard previous != target else { return }
        table.touch(source, target)
        if let previous { removeOtherSide(d, target: previous, source: source) }
        let writtenKey = addOtherSide(d, target: target, source: source, key: inverseKey)
        recordLink(d, source: source, target: target, key: nil, inverseKey: writtenKey)
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
            recordUnlink(d, source: source, target: target)
        }
        return old
    }

    /// Removes the links of `source` through `d` to `targets`, with the other sides.
    @inlinable
    mutating func unlink<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, from targets: [T.ID]
    ) {
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        for target in targets where table.contains(target, in: source, toMany: d.key.toMany) {
            table.remove(target, from: source, toMany: d.key.toMany)
            removeOtherSide(d, target: target, source: source)
            recordUnlink(d, source: source, target: target)
        }
    }

    /// Puts `target` at `index` in the to-many relation `d` of `source`: links it (with the other
    /// side, at the end of the inverse) or moves it. Writes one link, except after concurrent
    /// inserts left equal keys around `index` (see ``LinkTable/insert(_:into:at:using:)``).
    @inlinable
    mutating func insert<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID, at index: Int
    ) {
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        let wasLinked = table.list(of: source)?.contains(target) ?? false
        let written = table.insert(target, into: source, at: index, using: &storage.generator)
        for (moved, key) in written.dropFirst() {
            recordMove(d, source: source, target: moved, key: key)
        }
        if wasLinked {
            recordMove(d, source: source, target: target, key: written[0].1)
        } else {
            let inverseKey = addOtherSide(d, target: target, source: source)
            recordLink(d, source: source, target: target, key: written[0].1, inverseKey: inverseKey)
        }
    }
}
