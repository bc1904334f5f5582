/// An index of one property that a context's table keeps beside its entities (see
/// ``EntityTable/memoryIndexes``): made from a declaration (``IndexDeclaration/memoryIndex``) the
/// first time a query can use it, then kept by every save and erase of the table.
@usableFromInline
class MemoryIndex<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The indexed property.
    let keyPath: PartialKeyPath<Entity>

    init(keyPath: PartialKeyPath<Entity>) { self.keyPath = keyPath }

    /// Adds `entity` (not held yet).
    func insert(_ entity: Entity) { fatalError("abstract") }
    /// Adds every one of `entities` (none held yet).
    func build(from entities: some Collection<Entity>) { for entity in entities { insert(entity) } }
    /// Removes `entity` (held with these values).
    func remove(_ entity: Entity) { fatalError("abstract") }
    /// The ids of the entities passing every one of `lookups` this index answers (those of its
    /// property, with a test it keeps), in no order; `nil` when it answers none.
    func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? { fatalError("abstract") }
    /// How many ids ``ids(_:)`` gives, counted without listing them where the index can.
    func count(_ lookups: [IndexLookup<Entity>]) -> Int? { ids(lookups)?.count }
    /// The ids in the order of the indexed property (`descending`: greatest first; ties in no
    /// order), of those passing the `lookups` of that property, one at a time until `body`
    /// returns `false`; `false` when this index keeps no order.
    func forEachInOrder(descending: Bool, within lookups: [IndexLookup<Entity>], _ body: (Entity.ID) -> Bool) -> Bool { false }
    /// A copy, for a table's copy.
    func copy() -> MemoryIndex<Entity> { fatalError("abstract") }
    /// What differs between the index and `entities` (the table's), if anything: checked by
    /// `checkInvariants()`.
    func mismatch(with entities: [Entity]) -> String? { fatalError("abstract") }
}

/// A ``HashIndex`` or ``Unique`` declaration's index in memory: the ids holding each value.
final class HashMemoryIndex<Entity: EntityModelProtocol, Value: Hashable>: MemoryIndex<Entity>, @unchecked Sendable {
    let typedKeyPath: KeyPath<Entity, Value>
    var holders: [Value: Set<Entity.ID>] = [:]

    init(_ keyPath: KeyPath<Entity, Value>) {
        typedKeyPath = keyPath
        super.init(keyPath: keyPath)
    }

    override func insert(_ entity: Entity) { holders[entity[keyPath: typedKeyPath], default: []].insert(entity.id) }

    override func remove(_ entity: Entity) {
        let value = entity[keyPath: typedKeyPath]
        holders[value]?.remove(entity.id)
        if holders[value]?.isEmpty == true { holders[value] = nil }
    }

    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        for lookup in lookups where lookup.keyPath == keyPath && lookup.test == .equal {
            if let value = lookup.value as? Value { return Array(holders[value] ?? []) }
        }
        return nil
    }

    override func count(_ lookups: [IndexLookup<Entity>]) -> Int? {
        for lookup in lookups where lookup.keyPath == keyPath && lookup.test == .equal {
            if let value = lookup.value as? Value { return holders[value]?.count ?? 0 }
        }
        return nil
    }

    override func copy() -> MemoryIndex<Entity> {
        let copy = HashMemoryIndex(typedKeyPath)
        copy.holders = holders
        return copy
    }

    override func mismatch(with entities: [Entity]) -> String? {
        let fresh = HashMemoryIndex(typedKeyPath)
        for entity in entities { fresh.insert(entity) }
        return fresh.holders == holders ? nil : "the hash index of \(typedKeyPath) holds \(holders), its entities \(fresh.holders)"
    }
}

/// An ``Index`` declaration's index in memory (its first property), for equality and ranges in
/// O(log n + k + p): the ids sorted by value, a short unsorted run of the latest insertions (at
/// most p ≈ √n, merged into the sorted ones when it grows past that: amortized O(√n) per save,
/// whatever the order values come in), and the ids whose sorted entry is stale (dropped at the
/// merge).
final class SortedMemoryIndex<Entity: EntityModelProtocol, Value: Comparable>: MemoryIndex<Entity>, @unchecked Sendable {
    let typedKeyPath: KeyPath<Entity, Value>
    /// The values, ascending, and the id holding each (ties in no order).
    var values: [Value] = []
    var ids: [Entity.ID] = []
    /// The latest insertions, in no order.
    var recentValues: [Value] = []
    var recentIDs: [Entity.ID] = []
    /// The ids whose entry in `ids` was removed.
    var stale: Set<Entity.ID> = []

    init(_ keyPath: KeyPath<Entity, Value>) {
        typedKeyPath = keyPath
        super.init(keyPath: keyPath)
    }

    /// The first position whose value is not below `value` (`orEqual`: not at most `value`).
    private func position(after value: Value, orEqual: Bool) -> Int {
        var low = 0, high = values.count
        while low < high {
            let middle = (low + high) / 2
            if orEqual ? values[middle] <= value : values[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    override func insert(_ entity: Entity) {
        recentValues.append(entity[keyPath: typedKeyPath])
        recentIDs.append(entity.id)
        if recentIDs.count > max(64, Int(Double(values.count).squareRoot())) { merge() }
    }

    override func build(from entities: some Collection<Entity>) {
        let pairs = entities.map { ($0[keyPath: typedKeyPath], $0.id) }.sorted { $0.0 < $1.0 }
        values = pairs.map(\.0)
        ids = pairs.map(\.1)
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
    /// (this code runs unspecialized: element-by-element loops would cost a generic call each).
    private func merge() {
        if !stale.isEmpty {
            let kept = ids.indices.filter { !stale.contains(ids[$0]) }
            values = kept.map { values[$0] }
            ids = kept.map { ids[$0] }
            stale = []
        }
        let order = recentIDs.indices.sorted { recentValues[$0] < recentValues[$1] }
        var mergedValues: [Value] = [], mergedIDs: [Entity.ID] = []
        mergedValues.reserveCapacity(values.count + order.count)
        mergedIDs.reserveCapacity(values.count + order.count)
        var copied = 0
        for index in order {
            let end = position(after: recentValues[index], orEqual: true)
            if end > copied {
                mergedValues.append(contentsOf: values[copied..<end])
                mergedIDs.append(contentsOf: ids[copied..<end])
                copied = end
            }
            mergedValues.append(recentValues[index])
            mergedIDs.append(recentIDs[index])
        }
        mergedValues.append(contentsOf: values[copied...])
        mergedIDs.append(contentsOf: ids[copied...])
        (values, ids) = (mergedValues, mergedIDs)
        recentValues = []
        recentIDs = []
    }

    /// The positions of the sorted entries passing every lookup of this index's property, and
    /// the test of a value; `nil` when no lookup is of its property.
    private func bounds(_ lookups: [IndexLookup<Entity>]) -> (Range<Int>, (Value) -> Bool)? {
        var range = values.startIndex..<values.endIndex
        var tests: [(Value) -> Bool] = []
        for lookup in lookups where lookup.keyPath == keyPath {
            guard let value = lookup.value as? Value else { continue }
            let part: Range<Int>, passes: (Value) -> Bool
            switch lookup.test {
            case .equal: (part, passes) = (position(after: value, orEqual: false)..<position(after: value, orEqual: true), { $0 == value })
            case .less: (part, passes) = (0..<position(after: value, orEqual: false), { $0 < value })
            case .lessOrEqual: (part, passes) = (0..<position(after: value, orEqual: true), { $0 <= value })
            case .greater: (part, passes) = (position(after: value, orEqual: true)..<values.count, { $0 > value })
            case .greaterOrEqual: (part, passes) = (position(after: value, orEqual: false)..<values.count, { $0 >= value })
            default: continue
            }
            range = range.clamped(to: part)
            tests.append(passes)
        }
        guard !tests.isEmpty else { return nil }
        return (range, { value in tests.allSatisfy { $0(value) } })
    }

    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        guard let (range, passes) = bounds(lookups) else { return nil }
        var found = stale.isEmpty ? Array(ids[range]) : ids[range].filter { !stale.contains($0) }
        for (recent, id) in zip(recentValues, recentIDs) where passes(recent) { found.append(id) }
        return found
    }

    override func count(_ lookups: [IndexLookup<Entity>]) -> Int? {
        // With stale entries in the range, they must be told apart: the ids are listed.
        guard stale.isEmpty else { return ids(lookups)?.count }
        guard let (range, passes) = bounds(lookups) else { return nil }
        return range.count + recentValues.count(where: passes)
    }

    override func forEachInOrder(descending: Bool, within lookups: [IndexLookup<Entity>], _ body: (Entity.ID) -> Bool) -> Bool {
        let (range, passes) = bounds(lookups) ?? (values.startIndex..<values.endIndex, { _ in true })
        // The recent run, sorted now (at most ~√n), merged with the sorted entries as they go.
        let recent = recentIDs.indices.filter { passes(recentValues[$0]) }.sorted {
            descending ? recentValues[$0] > recentValues[$1] : recentValues[$0] < recentValues[$1]
        }
        var next = 0
        func before(_ position: Int) -> Bool {
            descending ? recentValues[recent[next]] > values[position] : recentValues[recent[next]] < values[position]
        }
        var position = descending ? range.upperBound - 1 : range.lowerBound
        while descending ? position >= range.lowerBound : position < range.upperBound {
            while next < recent.count, before(position) {
                guard body(recentIDs[recent[next]]) else { return true }
                next += 1
            }
            if !stale.contains(ids[position]) {
                guard body(ids[position]) else { return true }
            }
            position += descending ? -1 : 1
        }
        while next < recent.count {
            guard body(recentIDs[recent[next]]) else { return true }
            next += 1
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
        for (value, id) in zip(recentValues, recentIDs) {
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

/// One test of one property a query's predicate makes (`\.age > 18`): what a ``MemoryIndex``
/// answers.
@usableFromInline
struct IndexLookup<Entity>: @unchecked Sendable {
    let keyPath: PartialKeyPath<Entity>
    let test: ColumnFilter.Test
    let value: Any
    /// Whether the ids an index gives pass the test (`false`: they may pass, the filter decides
    /// — a text test answered by trigrams).
    var isExact = true
}
