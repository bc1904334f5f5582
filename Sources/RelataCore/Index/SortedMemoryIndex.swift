/// An ``Index`` declaration's index in memory (its first property), for equality and ranges in
/// O(log n + k): the ids sorted by value, a short sorted run of the latest insertions (at most
/// p ≈ √n, each placed by a binary search and a move of the run's tail; merged into the sorted
/// ones when it grows past that: amortized O(√n) per save, whatever the order values come in),
/// and the ids whose sorted entry is stale (dropped at the merge). A query finds its range in
/// both runs by binary search and reads them merged: no value is tested one by one (this code
/// runs unspecialized, where each comparison is a generic call).
final class SortedMemoryIndex<Entity: EntityModelProtocol, Value: Comparable>: MemoryIndex<Entity>, @unchecked Sendable {
    let typedKeyPath: KeyPath<Entity, Value>
    /// The values, ascending, and the id holding each (ties in no order).
    var values: [Value] = []
    var ids: [Entity.ID] = []
    /// The latest insertions, ascending (ties in the order inserted).
    var recentValues: [Value] = []
    var recentIDs: [Entity.ID] = []
    /// The ids whose entry in `ids` was removed.
    var stale: Set<Entity.ID> = []

    init(_ keyPath: KeyPath<Entity, Value>) {
        typedKeyPath = keyPath
        super.init(keyPath: keyPath)
    }

    /// The first position of `sorted` whose value is not below `value` (`orEqual`: not at most
    /// `value`).
    private static func position(in sorted: [Value], after value: Value, orEqual: Bool) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if orEqual ? sorted[middle] <= value : sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    override func insert(_ entity: Entity) {
        let value = entity[keyPath: typedKeyPath]
        let at = Self.position(in: recentValues, after: value, orEqual: true)
        recentValues.insert(value, at: at)
        recentIDs.insert(entity.id, at: at)
        if recentIDs.count > max(64, Int(Double(values.count).squareRoot())) { merge() }
    }

    override func build(from entities: some Collection<Entity>) {
        let pairs = entities.map { ($0[keyPath: typedKeyPath], $0.id) }.sorted { $0.0 < $1.0 }
        values = pairs.map { $0.0 }
        ids = pairs.map { $0.1 }
    }

    override func remove(_ entity: Entity) {
        if let at = recentIDs.lastIndex(of: entity.id) {
            recentIDs.remove(at: at)
            recentValues.remove(at: at)
        } else {
            stale.insert(entity.id)
        }
    }

    /// Moves the recent insertions into the sorted entries and drops the stale ones: the stale
    /// ones are dropped first (a pass over the entries only when there are some), then each
    /// recent insertion goes after the entries not above it, the runs between them copied whole
    /// (element-by-element loops would cost a generic call each).
    private func merge() {
        if !stale.isEmpty {
            let kept = ids.indices.filter { !stale.contains(ids[$0]) }
            values = kept.map { values[$0] }
            ids = kept.map { ids[$0] }
            stale = []
        }
        var mergedValues: [Value] = [], mergedIDs: [Entity.ID] = []
        mergedValues.reserveCapacity(values.count + recentValues.count)
        mergedIDs.reserveCapacity(values.count + recentValues.count)
        var copied = 0
        for (value, id) in zip(recentValues, recentIDs) {
            let end = Self.position(in: values, after: value, orEqual: true)
            if end > copied {
                mergedValues.append(contentsOf: values[copied..<end])
                mergedIDs.append(contentsOf: ids[copied..<end])
                copied = end
            }
            mergedValues.append(value)
            mergedIDs.append(id)
        }
        mergedValues.append(contentsOf: values[copied...])
        mergedIDs.append(contentsOf: ids[copied...])
        (values, ids) = (mergedValues, mergedIDs)
        recentValues = []
        recentIDs = []
    }

    /// The positions of `sorted` whose values pass every lookup of this index's property; `nil`
    /// when no lookup is of its property.
    private func positions(in sorted: [Value], _ lookups: [IndexLookup<Entity>]) -> Range<Int>? {
        var range = sorted.startIndex..<sorted.endIndex, found = false
        for lookup in lookups where lookup.keyPath == keyPath {
            guard let value = lookup.value as? Value else { continue }
            let part: Range<Int>
            switch lookup.test {
            case .equal: part = Self.position(in: sorted, after: value, orEqual: false)..<Self.position(in: sorted, after: value, orEqual: true)
            case .less: part = 0..<Self.position(in: sorted, after: value, orEqual: false)
            case .lessOrEqual: part = 0..<Self.position(in: sorted, after: value, orEqual: true)
            case .greater: part = Self.position(in: sorted, after: value, orEqual: true)..<sorted.count
            case .greaterOrEqual: part = Self.position(in: sorted, after: value, orEqual: false)..<sorted.count
            default: continue
            }
            range = range.clamped(to: part)
            found = true
        }
        return found ? range : nil
    }

    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        guard let range = positions(in: values, lookups), let recent = positions(in: recentValues, lookups) else { return nil }
        var found = stale.isEmpty ? Array(ids[range]) : ids[range].filter { !stale.contains($0) }
        found.append(contentsOf: recentIDs[recent])
        return found
    }

    /// Comparisons of the property, each answered by the range of its values.
    override func answersExactly(_ lookups: [IndexLookup<Entity>]) -> Bool {
        lookups.allSatisfy { lookup in
            guard lookup.isExact, lookup.value is Value, lookup.keyPath == keyPath else { return false }
            switch lookup.test {
            case .equal, .less, .lessOrEqual, .greater, .greaterOrEqual: return true
            default: return false
            }
        }
    }

    override func count(_ lookups: [IndexLookup<Entity>]) -> Int? {
        // With stale entries in the range, they must be told apart: the ids are listed.
        guard stale.isEmpty else { return ids(lookups)?.count }
        guard let range = positions(in: values, lookups), let recent = positions(in: recentValues, lookups) else { return nil }
        return range.count + recent.count
    }

    override func forEachInOrder(descending: Bool, within lookups: [IndexLookup<Entity>], _ body: (Entity.ID, _ tiesWithPrevious: Bool) -> Bool) -> Bool {
        // The runs read once (a property read each step is an access check each).
        let (values, ids, recentValues, recentIDs, stale) = (values, ids, recentValues, recentIDs, stale)
        let range = positions(in: values, lookups) ?? values.startIndex..<values.endIndex
        let recent = positions(in: recentValues, lookups) ?? recentValues.startIndex..<recentValues.endIndex
        let hasStale = !stale.isEmpty
        // The two sorted runs merged as they go (at equal values, the older entries first).
        var position = descending ? range.upperBound - 1 : range.lowerBound
        var next = descending ? recent.upperBound - 1 : recent.lowerBound
        func hasMain() -> Bool { descending ? position >= range.lowerBound : position < range.upperBound }
        func hasRecent() -> Bool { descending ? next >= recent.lowerBound : next < recent.upperBound }
        // Where the value of the id given last is (in the recent run or not, its place; −1
        // before the first): whether the next ties with it.
        var last = (recent: false, place: -1)
        func ties(recent: Bool, _ place: Int) -> Bool {
            defer { last = (recent, place) }
            guard last.place >= 0 else { return false }
            return (last.recent ? recentValues[last.place] : values[last.place]) == (recent ? recentValues[place] : values[place])
        }
        while hasMain() || hasRecent() {
            let takeRecent =
                !hasMain() || hasRecent() && (descending ? recentValues[next] > values[position] : recentValues[next] < values[position])
            if takeRecent {
                guard body(recentIDs[next], ties(recent: true, next)) else { return true }
                next += descending ? -1 : 1
            } else {
                if !hasStale || !stale.contains(ids[position]) {
                    guard body(ids[position], ties(recent: false, position)) else { return true }
                }
                position += descending ? -1 : 1
            }
        }
        return true
    }

    override func copy() -> MemoryIndex<Entity> {
        let copy = SortedMemoryIndex(typedKeyPath)
        (copy.values, copy.ids) = (values, ids)
        (copy.recentValues, copy.recentIDs, copy.stale) = (recentValues, recentIDs, stale)
        return copy
    }

    override func mismatch(with entities: [Entity]) -> String? {
        var held: [Entity.ID: Value] = [:]
        for (index, id) in ids.enumerated() where !stale.contains(id) {
            if index > 0, values[index - 1] > values[index] { return "the sorted index of \(typedKeyPath) is out of order at \(id)" }
            guard held.updateValue(values[index], forKey: id) == nil else { return "the sorted index of \(typedKeyPath) holds \(id) twice" }
        }
        for (index, (value, id)) in zip(recentValues, recentIDs).enumerated() {
            if index > 0, recentValues[index - 1] > value { return "the sorted index of \(typedKeyPath) has its recent run out of order at \(id)" }
            guard held.updateValue(value, forKey: id) == nil else { return "the sorted index of \(typedKeyPath) holds \(id) twice" }
        }
        guard held.count == entities.count else {
            return "the sorted index of \(typedKeyPath) holds \(held.count) ids for \(entities.count) entities"
        }
        for entity in entities where held[entity.id] != entity[keyPath: typedKeyPath] {
            return "the sorted index of \(typedKeyPath) holds a stale value for \(entity.id)"
        }
        return nil
    }
}

