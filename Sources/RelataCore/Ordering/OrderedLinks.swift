import OrderedCollections

/// The targets of one source through an ordered to-many relation, sorted by position key, ties
/// broken by target id (``IDOrder``), with O(1) lookup of a target's index.
@usableFromInline
struct OrderedLinks<ID: Hashable & Sendable>: Sendable {
    @usableFromInline var targets: OrderedSet<ID> = []
    @usableFromInline var keys: ContiguousArray<PositionKey> = []

    @inlinable init() {}

    @inlinable var count: Int { targets.count }
    @inlinable var isEmpty: Bool { targets.isEmpty }
    @inlinable var lastKey: PositionKey? { keys.last }

    @inlinable
    func contains(_ id: ID) -> Bool { targets.contains(id) }

    @inlinable
    func index(of id: ID) -> Int? { targets.firstIndex(of: id) }

    /// The key of `id`, if linked.
    @inlinable
    func key(of id: ID) -> PositionKey? { index(of: id).map { keys[$0] } }

    /// The index at which an element with `key` and `id` sorts.
    @usableFromInline
    func sortedIndex(for key: PositionKey, id: ID) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            let other = keys[middle]
            if other < key || (other == key && IDOrder.precedes(targets[middle], id)) {
                low = middle + 1
            } else {
                high = middle
            }
        }
        return low
    }

    /// Appends `id` after every other element, unless it is already linked.
    ///
    /// - Returns: The new key, or `nil` when `id` was already linked.
    @inlinable
    mutating func appendIfAbsent(_ id: ID, using generator: inout JitterGenerator) -> PositionKey? {
        guard !targets.contains(id) else { return nil }
        let key = PositionKey.between(keys.last, nil, using: &generator)
        targets.append(id)
        keys.append(key)
        return key
    }

    /// Links `id` at `key`, or moves it there when already linked.
    @usableFromInline
    mutating func place(_ id: ID, at key: PositionKey) {
        if let index = targets.firstIndex(of: id) {
            if keys[index] == key { return }
            targets.remove(at: index)
            keys.remove(at: index)
        }
        let index = sortedIndex(for: key, id: id)
        targets.insert(id, at: index)
        keys.insert(key, at: index)
    }

    /// Unlinks `id`; returns whether it was linked.
    @inlinable
    @discardableResult
    mutating func remove(_ id: ID) -> Bool {
        guard let index = targets.firstIndex(of: id) else { return false }
        targets.remove(at: index)
        keys.remove(at: index)
        return true
    }

    /// Whether the keys are sorted (ties by id): the invariant every operation keeps.
    func isSorted() -> Bool {
        keys.indices.dropFirst().allSatisfy { index in
            keys[index - 1] < keys[index]
                || (keys[index - 1] == keys[index] && IDOrder.precedes(targets[index - 1], targets[index]))
        }
    }
}

/// The deterministic order of ids that breaks ties between equal position keys: the ids' own
/// order when they are `Comparable` (`String`, `Int`, `UUID`), else their description.
@usableFromInline
enum IDOrder {
    @usableFromInline
    static func precedes<ID>(_ a: ID, _ b: ID) -> Bool {
        if let a = a as? String, let b = b as? String { return a < b }
        if let a = a as? any Comparable, let result = compare(a, b) { return result }
        return String(describing: a) < String(describing: b)
    }

    private static func compare<C: Comparable>(_ a: C, _ b: Any) -> Bool? {
        (b as? C).map { a < $0 }
    }
}
