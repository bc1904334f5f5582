import OrderedCollections

/// Ordered writes to the to-many side of a link table. Each returns the links it wrote (target
/// and new key), which is what a ChangeSet records.
extension LinkTable {
    /// Appends `target` at the end of the targets of `source`, or does nothing if it is linked.
    ///
    /// - Returns: The new key, or `nil` when `target` was already linked.
    @inlinable
    func append(_ target: TargetID, to source: SourceID, using generator: inout JitterGenerator) -> PositionKey? {
        ensure(source)
        let key = many[source, default: OrderedLinks()].appendIfAbsent(target, using: &generator)
        if key != nil { touch(source, target) }
        return key
    }

    /// Appends `target`, known not to be linked to `source` (the other side of a link just
    /// made), at the end of the targets of `source`. In a context over storage that has not read
    /// the list, only the stored list's last key is read (by index, once per source): a long
    /// list grows without being read.
    ///
    /// - Returns: The new key.
    ///
    /// With `deferTail` (a Store write that records no ChangeSet), not even that: the targets get
    /// provisional keys, placed after the stored list's tail when the list is read, or before the
    /// write's delta after one read of every such list's tail (``resolveProvisionalTails()``).
    @inlinable
    func appendNew(_ target: TargetID, to source: SourceID, using generator: inout JitterGenerator, deferTail: Bool = false) -> PositionKey? {
        guard let faulter, faulter.readsPages, !loaded.contains(source) else { return append(target, to: source, using: &generator) }
        return appendAfterStoredTail(target, to: source, using: &generator, deferTail: deferTail && faulter.readsTails)
    }

    @inlinable @inline(never)
    func appendAfterStoredTail(_ target: TargetID, to source: SourceID, using generator: inout JitterGenerator, deferTail: Bool = false) -> PositionKey? {
        let last: PositionKey?
        if let appended = many[source]?.keys.last {
            last = appended
        } else if let tail = write?.storedTails[source] {
            last = tail
        } else if deferTail {
            // Provisional: as if the stored list were empty, until its tail is read.
            writing.provisional.insert(source)
            writing.storedTails.updateValue(nil, forKey: source)
            last = nil
        } else {
            // The stored list's tail, as a batch of tails reads it (the store's cache may hold
            // it). A failed read (the base keeps the error): the list is read whole instead.
            guard let found = faulter?.tails([source]) else { return append(target, to: source, using: &generator) }
            last = found[source]
            writing.storedTails[source] = last
        }
        let key = PositionKey.after(last, using: &generator)
        many[source, default: OrderedLinks()].place(target, at: key)
        touch(source, target)
        return key
    }

    /// Links `target` to `source` at `key`, or moves it there (a ChangeSet being replayed).
    @inlinable
    func place(_ target: TargetID, in source: SourceID, at key: PositionKey) {
        ensure(source)
        touch(source, target)
        many[source, default: OrderedLinks()].place(target, at: key)
    }

    /// Puts `target` at `index` among the targets of `source` (moving it if already linked).
    ///
    /// - Returns: The links written: `target` with its new key, plus, only when `index` falls
    ///   between two elements with equal keys (after concurrent inserts), the elements that had to
    ///   be moved past it.
    /// - Precondition: `index` is within `0...count` (without `target`).
    @usableFromInline
    func insert(
        _ target: TargetID, into source: SourceID, at index: Int, using generator: inout JitterGenerator
    ) -> [(TargetID, PositionKey)] {
        ensure(source)
        var links = many.removeValue(forKey: source) ?? OrderedLinks()
        defer { many[source] = links.isEmpty ? nil : links }
        links.remove(target)
        precondition(index >= 0 && index <= links.count, "index \(index) out of range")
        let lower = index > 0 ? links.keys[index - 1] : nil
        var end = index
        while let lower, end < links.count, links.keys[end] == lower { end += 1 }
        let upper = end < links.count ? links.keys[end] : nil
        let keys = PositionKey.uncheckedKeys(count: end - index + 1, between: lower, and: upper, using: &generator)
        var written = [(target, keys[0])]
        for (offset, moved) in (index..<end).enumerated() {
            links.setKey(keys[offset + 1], at: moved)
            written.append((links.targets[moved], keys[offset + 1]))
        }
        links.insert(target, key: keys[0], at: index)
        for (written, _) in written { touch(source, written) }
        return written
    }

    /// What replacing the targets of a source wrote.
    @usableFromInline
    struct Replacement {
        /// Targets no longer linked.
        @usableFromInline var removed: [TargetID] = []
        /// Targets newly linked, with their keys.
        @usableFromInline var added: [(TargetID, PositionKey)] = []
        /// Targets still linked whose key changed.
        @usableFromInline var moved: [(TargetID, PositionKey)] = []
    }

    /// Replaces the targets of `source` by `targets` in this order (duplicates after the first
    /// are ignored). Targets outside one longest run that kept its relative order get new keys;
    /// the others keep theirs.
    ///
    /// - Complexity: O(n log n) in the number of old and new targets.
    @usableFromInline
    func replace(_ source: SourceID, with targets: [TargetID], using generator: inout JitterGenerator) -> Replacement {
        ensure(source)
        let old = many.removeValue(forKey: source) ?? OrderedLinks()
        var result = Replacement()
        let newTargets = OrderedSet(targets)
        for target in old.targets where !newTargets.contains(target) {
            result.removed.append(target)
        }
        // Old indices of the targets that stay, in their new order; the longest increasing run of
        // them keeps its keys (strictly increasing keys only: equal keys tie by id, which the new
        // order may contradict).
        var stayed: [Int] = []
        var oldIndices: [Int] = []
        for (newIndex, target) in newTargets.enumerated() {
            if let oldIndex = old.index(of: target) {
                stayed.append(newIndex)
                oldIndices.append(oldIndex)
            }
        }
        var keep = [PositionKey?](repeating: nil, count: newTargets.count)
        var lastKept: PositionKey?
        for position in longestIncreasingSubsequence(oldIndices) {
            let key = old.keys[oldIndices[position]]
            if let lastKept, !(lastKept < key) { continue }
            keep[stayed[position]] = key
            lastKept = key
        }
        // Fill each run of elements without a key between the kept keys around it.
        var newKeys: [PositionKey] = []
        newKeys.reserveCapacity(newTargets.count)
        var index = 0
        while index < keep.count {
            if let key = keep[index] {
                newKeys.append(key)
                index += 1
                continue
            }
            var end = index
            while end < keep.count, keep[end] == nil { end += 1 }
            let upper = end < keep.count ? keep[end] : nil
            let keys = PositionKey.uncheckedKeys(count: end - index, between: newKeys.last, and: upper, using: &generator)
            for (offset, key) in keys.enumerated() {
                let target = newTargets[index + offset]
                newKeys.append(key)
                if old.contains(target) { result.moved.append((target, key)) } else { result.added.append((target, key)) }
            }
            index = end
        }
        let new = OrderedLinks(sortedTargets: newTargets.elements, keys: newKeys)
        if !new.isEmpty { many[source] = new }
        if isTracking {
            for target in result.removed { touch(source, target) }
            for (target, _) in result.moved + result.added { touch(source, target) }
        }
        return result
    }

    /// Places the provisional targets of `source` (see ``appendNew(_:to:using:deferTail:)``) after
    /// `tail`, the stored list's last key, in the order they were appended.
    @inlinable
    func placeProvisional(of source: SourceID, after tail: PositionKey?, into list: inout OrderedLinks<TargetID>) {
        guard let appended = many[source] else { return }
        var generator = write?.rekeying ?? JitterGenerator()
        defer { writing.rekeying = generator }
        var last = tail
        for target in appended.targets {
            let key = PositionKey.after(last, using: &generator)
            list.place(target, at: key)
            last = key
        }
    }

    /// The reads ``resolveProvisionalTails()`` makes.
    @usableFromInline
    var plannedProvisionalTails: PlannedReads {
        guard let provisional = write?.provisional, !provisional.isEmpty, let faulter else { return PlannedReads() }
        return faulter.plannedTails(Array(provisional))
    }

    /// Reads the tails of the lists that got provisional keys, in one batch, and places their
    /// appended targets after them.
    @inlinable
    func resolveProvisionalTails() {
        guard let provisional = write?.provisional, !provisional.isEmpty, let faulter, faulter.readsTails else { return }
        let sources = Array(provisional)
        // A failed read is kept by the base, and fails the write.
        guard let found = faulter.tails(sources) else { return }
        for source in sources {
            writing.provisional.remove(source)
            let tail = found[source]
            writing.storedTails.updateValue(tail, forKey: source)
            var list = OrderedLinks<TargetID>()
            placeProvisional(of: source, after: tail, into: &list)
            many[source] = list.isEmpty ? nil : list
        }
    }
}
