/// Setting a to-one link in a Store write without reading the target storage had for it.
///
/// Linking a source to a new target removes it from its old target's list. In a context over
/// storage that costs a read of the source's row first — one statement per entity saved, so a
/// bulk write of new messages asked storage about each message alone (and, on PostgreSQL, paid a
/// round trip for each). In a Store write the link is set without that read when nothing the
/// context holds could show the old one: no list of the other side is held whole. The source then
/// *departs* from whatever list storage has it in (every list of the other side read later drops
/// it, unless it was appended to that very list here: then it keeps its stored place, as the
/// read would have kept it), and before the write's delta the stored targets of all such sources
/// are read in one batch per relation (`resolveUnreadLinks()`): the old lists are marked changed
/// for observers, and a source set to the list it was already in keeps its place.
extension Context {
    /// Sets the to-one link of `source` through `d` to `target` without reading the stored one,
    /// when that is safe (see above); `false` when the caller must read it.
    @inlinable
    mutating func linkWithoutReading<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, _ table: LinkTable<S.ID, T.ID>, source: S.ID, to target: T.ID, inverseKey: PositionKey?
    ) -> Bool {
        guard storage.isTracking, storage.recorder == nil, inverseKey == nil else { return false }
        if let inverse = d.inverse, !inverse.toMany {
            return linkOneToOneWithoutReading(d, table, source: source, to: target)
        }
        if let inverse = d.inverse {
            let other = mutableTable(T.self).linkTable(inverse, S.ID.self)
            // (A source that left a list here already is linked by reading: its stored place is void.)
            guard other.faulter?.readsPages == true, other.loaded.isEmpty, other.write?.departed.index(forKey: source) == nil else { return false }
            other.writing.departed[source] = .some(target)
        } else {
            let others = backlinks(d)
            guard others.faulter != nil, others.loaded.isEmpty else { return false }
            others.departed.insert(source)
        }
        table.one[source] = target
        table.loaded.insert(source)
        table.touch(source, target)
        if d.inverse != nil {
            table.writing.unreadPrevious[source] = target
            let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
            if storage.write.unreadLinks[key] == nil {
                storage.write.unreadLinks[key] = DeferredRead(resolve: { $0.resolveUnreadLinks(d) }, plan: { $0.plannedUnreadLinks(d) })
            }
        }
        _ = addOtherSide(d, target: target, source: source)
        return true
    }

    /// Reads, in one batch per relation, what storage held for the to-one links set without
    /// reading it (see above), then the tails of the lists appended to with provisional keys:
    /// called before a Store write's delta is read.
    mutating func resolveUnreadLinks() {
        // What both rounds read is told to the transaction first: a backend whose reads are
        // round trips sends it all at once.
        if let base = storage.base, storage.write.unreadLinks.count + storage.write.provisionalTails.count > 0 {
            var reads = PlannedReads()
            for pending in storage.write.unreadLinks.values { if let plan = pending.plan { reads.add(plan(&self)) } }
            for pending in storage.write.provisionalTails.values { if let plan = pending.plan { reads.add(plan(&self)) } }
            base.prefetch(reads)
        }
        if !storage.write.unreadLinks.isEmpty {
            let resolvers = storage.write.unreadLinks.values
            storage.write.unreadLinks = [:]
            for pending in resolvers { pending.resolve(&self) }
        }
        if !storage.write.provisionalTails.isEmpty {
            let resolvers = storage.write.provisionalTails.values
            storage.write.provisionalTails = [:]
            for pending in resolvers { pending.resolve(&self) }
        }
    }

    /// The entity rows ``resolveUnreadLinks(_:)`` reads for `d`.
    @inlinable
    mutating func plannedUnreadLinks<S: EntityModelProtocol, T: EntityModelProtocol>(_ d: RelationDescriptor<S, T>) -> PlannedReads {
        let entities = mutableTable(S.self)
        guard let faulter = entities.faulter else { return PlannedReads() }
        return faulter.plannedRows(entities.linkTable(d.key, T.ID.self).write.map { Array($0.unreadPrevious.keys) } ?? [])
    }

    @inlinable
    mutating func resolveUnreadLinks<S: EntityModelProtocol, T: EntityModelProtocol>(_ d: RelationDescriptor<S, T>) {
        guard let inverse = d.inverse else { return }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        let unread = table.write?.unreadPrevious ?? [:]
        table.write?.unreadPrevious = [:]
        let entities = mutableTable(S.self)
        guard !unread.isEmpty, let faulter = entities.faulter else { return }
        let sources = Array(unread.keys)
        guard let rows = faulter.rows(sources) else { return }
        // The rows hold every to-one link of the sources: those not set here are held from now.
        for fill in faulter.rowLinks { fill(entities, sources, rows) }
        let name = d.name
        let other = mutableTable(T.self).linkTable(inverse, S.ID.self)
        var unplaced: [T.ID] = []
        for row in rows {
            guard let source = try? IDText.decode(row.id, as: S.ID.self), let appendedTo = unread[source],
                let link = row.toOne.first(where: { $0.relation == name }), let stored = try? IDText.decode(link.target, as: T.ID.self)
            else { continue }
            // The old list changed (observers of it are told).
            other.touch(stored, source)
            // Set to the list it was in: it keeps its stored place, which its row holds — the
            // list is read only when the row does not say it.
            if stored == appendedTo, other.write?.departed[source] == .some(stored),
                !other.keepStoredPlace(of: source, in: stored, at: link.inversePosition.flatMap(PositionKey.init))
            {
                unplaced.append(stored)
            }
        }
        if !unplaced.isEmpty { other.ensure(unplaced) }
    }
}
