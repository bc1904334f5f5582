/// Setting a one-to-one link in a Store write without reading what storage held for either end.
///
/// Linking `x` to `y` through a one-to-one relation displaces whatever each was linked to: `y`'s
/// old partner loses its link to `y`, and `x`'s old partner loses its link to `x`. Read eagerly,
/// that is two statements per link (a bulk save of messages with attachments paid them for every
/// attachment). In a Store write the link is set on both sides without reading, each end
/// *claiming* the other: a link storage holds to a claimed entity, from any other entity, is void
/// from then on in this context (``LinkWriteOverlay/claimed``). Before the write's delta, what storage
/// held for the ends is read in one batch per side (`resolveUnreadOneToOne`), and each old
/// partner loses its link (its row rewritten where it stores the link; observers told).
///
/// Only when nothing the context holds could show an old link: neither end's entry is held, and
/// no entry of either side was read from storage (the claims void what is read after them, not
/// what was read before).
extension Context {
    @inlinable
    mutating func linkOneToOneWithoutReading<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, _ table: LinkTable<S.ID, T.ID>, source: S.ID, to target: T.ID
    ) -> Bool {
        guard let inverse = d.inverse, !inverse.toMany, !(S.self == T.self && inverse.ordinal == d.key.ordinal) else { return false }
        let other = mutableTable(T.self).linkTable(inverse, S.ID.self)
        guard other.faulter != nil, !other.loaded.contains(target), table.write?.readStored != true, other.write?.readStored != true else { return false }
        table.one[source] = target
        table.loaded.insert(source)
        table.touch(source, target)
        table.writing.claimed[target] = source
        table.writing.unreadOne[source] = target
        other.one[target] = source
        other.loaded.insert(target)
        other.touch(target, source)
        other.writing.claimed[source] = target
        other.writing.unreadOne[target] = source
        // One resolver per relation, whichever side was set.
        let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
        let otherKey = RelationKey(source: ObjectIdentifier(T.self), ordinal: inverse.ordinal)
        if storage.write.unreadLinks[key] == nil, storage.write.unreadLinks[otherKey] == nil {
            storage.write.unreadLinks[key] = DeferredRead(resolve: { $0.resolveUnreadOneToOne(d) }, plan: nil)
        }
        return true
    }

    /// Reads what storage held for the ends of the one-to-one links of `d` set without reading
    /// (both sides, one batch each), and unlinks each old partner that is not the new one.
    @inlinable
    mutating func resolveUnreadOneToOne<S: EntityModelProtocol, T: EntityModelProtocol>(_ d: RelationDescriptor<S, T>) {
        guard let inverse = d.inverse else { return }
        let table = mutableTable(S.self).linkTable(d.key, T.ID.self)
        let other = mutableTable(T.self).linkTable(inverse, S.ID.self)
        let sources = table.write.map { Array($0.unreadOne.keys) } ?? [], targets = other.write.map { Array($0.unreadOne.keys) } ?? []
        table.write?.unreadOne = [:]
        other.write?.unreadOne = [:]
        // What storage held, read without placing it (the entries set here are the current ones).
        let storedTargets = sources.isEmpty ? [:] : table.faulter?.read(sources)?.one ?? [:]
        let storedSources = targets.isEmpty ? [:] : other.faulter?.read(targets)?.one ?? [:]
        // Each old partner that is not the new one loses its link (its entry read in one batch
        // first: it reads as unlinked, the claim voiding the stored link; it is marked changed).
        let displacedSources = storedSources.compactMap { target, old in old != other.one[target] ? (old, target) : nil }
        let displacedTargets = storedTargets.compactMap { source, old in old != table.one[source] ? (old, source) : nil }
        table.ensure(displacedSources.map { $0.0 })
        other.ensure(displacedTargets.map { $0.0 })
        for (old, target) in displacedSources { table.remove(target, from: old, toMany: false) }
        for (old, source) in displacedTargets { other.remove(source, from: old, toMany: false) }
    }
}
