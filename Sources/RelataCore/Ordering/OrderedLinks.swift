/// The targets of one source through an ordered to-many relation, sorted by position key, ties
/// broken by target id (``IDOrder``).
///
/// Two parallel arrays (targets, keys) in order, plus, past a few elements, a dictionary from
/// target to key: finding a target is a lookup and a binary search, and inserting or removing
/// one is a memory move, without rehashing the other targets.
@usableFromInline
struct OrderedLinks<ID: Hashable & Sendable>: Sendable {
    @usableFromInline private(set) var targets: [ID] = []
    @usableFromInline private(set) var keys: [PositionKey] = []
    /// Target → key, kept once the list outgrows a linear scan.
    @usableFromInline private(set) var lookup: [ID: PositionKey]?

    @usableFromInline static var lookupThreshold: Int { 16 }

    @inlinable init() {}

    /// Links from targets and keys already in order and distinct.
    @inlinable
    init(sortedTargets targets: [ID], keys: [PositionKey]) {
        self.targets = targets
        self.keys = keys
        if targets.count > Self.lookupThreshold {
            lookup = Dictionary(uniqueKeysWithValues: zip(targets, keys))
        }
    }

    /// Links from distinct targets and their keys in any order: sorted by key, ties by id
    /// (``IDOrder``), as every load of stored links orders them.
    @inlinable
    init(unsortedTargets targets: [ID], keys: [PositionKey]) {
        // Storage hands lists back in order most often: checked in one pass, not sorted again.
        if zip(keys, keys.dropFirst()).allSatisfy({ $0 < $1 }) {
            self.init(sortedTargets: targets, keys: keys)
            return
        }
        let order = targets.indices.sorted { a, b in
            keys[a] < keys[b] || (keys[a] == keys[b] && IDOrder.precedes(targets[a], targets[b]))
        }
        self.init(sortedTargets: order.map { targets[$0] }, keys: order.map { keys[$0] })
    }

    @inlinable var count: Int { targets.count }
    @inlinable var isEmpty: Bool { targets.isEmpty }

    @inlinable
    func contains(_ id: ID) -> Bool {
        if let lookup { return lookup[id] != nil }
        return targets.contains(id)
    }

    /// The key of `id`, if linked.
    @inlinable
    func key(of id: ID) -> PositionKey? {
        if let lookup { return lookup[id] }
        return targets.firstIndex(of: id).map { keys[$0] }
    }

    /// The index of `id`, if linked.
    @inlinable
    func index(of id: ID) -> Int? {
        guard let lookup else { return targets.firstIndex(of: id) }
        guard let key = lookup[id] else { return nil }
        var index = firstIndex(notBelow: key)
        while targets[index] != id { index += 1 }   // equal keys: a short run
        return index
    }

    /// The first index whose key is not below `key`.
    @inlinable
    func firstIndex(notBelow key: PositionKey) -> Int {
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// The index at which an element with `key` and `id` sorts.
    @inlinable
    func sortedIndex(for key: PositionKey, id: ID) -> Int {
        var index = firstIndex(notBelow: key)
        while index < keys.count, keys[index] == key, IDOrder.precedes(targets[index], id) { index += 1 }
        return index
    }

    /// Inserts `id` with `key` at `index`; the caller keeps the order.
    @inlinable
    mutating func insert(_ id: ID, key: PositionKey, at index: Int) {
        targets.insert(id, at: index)
        keys.insert(key, at: index)
        if lookup != nil {
            lookup![id] = key
        } else if targets.count > Self.lookupThreshold {
            lookup = Dictionary(uniqueKeysWithValues: zip(targets, keys))
        }
    }

    /// Gives the element at `index` a new key; the caller keeps the order.
    @inlinable
    mutating func setKey(_ key: PositionKey, at index: Int) {
        keys[index] = key
        if lookup != nil { lookup![targets[index]] = key }
    }

    /// Appends `id` after every other element, unless it is already linked.
    ///
    /// - Returns: The new key, or `nil` when `id` was already linked.
    @inlinable
    mutating func appendIfAbsent(_ id: ID, using generator: inout JitterGenerator) -> PositionKey? {
        guard lookup != nil else {
            guard !targets.contains(id) else { return nil }
            let key = PositionKey.after(keys.last, using: &generator)
            insert(id, key: key, at: targets.count)
            return key
        }
        // One lookup: the key goes in the slot found empty.
        guard let key = Self.fillIfEmpty(&lookup![id], with: PositionKey.after(keys.last, using: &generator)) else {
            return nil
        }
        targets.append(id)
        keys.append(key)
        return key
    }

    /// Puts `value()` in `slot` if it is empty, and returns it; `nil` when the slot was taken.
    @inlinable
    static func fillIfEmpty(_ slot: inout PositionKey?, with value: @autoclosure () -> PositionKey) -> PositionKey? {
        guard slot == nil else { return nil }
        let filled = value()
        slot = filled
        return filled
    }

    /// Links `id` at `key`, or moves it there when already linked.
    @inlinable
    mutating func place(_ id: ID, at key: PositionKey) {
        if lookup != nil, let last = keys.last, last < key {
            // After every other element (a list growing at its end): one lookup, no search.
            if Self.fillIfEmpty(&lookup![id], with: key) != nil {
                targets.append(id)
                keys.append(key)
                return
            }
        }
        if let index = index(of: id) {
            if keys[index] == key { return }
            remove(at: index)
        }
        insert(id, key: key, at: sortedIndex(for: key, id: id))
    }

    @inlinable
    mutating func remove(at index: Int) {
        let id = targets.remove(at: index)
        keys.remove(at: index)
        lookup?[id] = nil
    }

    /// Unlinks `id`; returns whether it was linked.
    @inlinable
    @discardableResult
    mutating func remove(_ id: ID) -> Bool {
        guard let index = index(of: id) else { return false }
        remove(at: index)
        return true
    }

    /// Whether the keys are sorted (ties by id) and the lookup agrees: the invariant every
    /// operation keeps.
    func isSorted() -> Bool {
        let sorted = keys.indices.dropFirst().allSatisfy { index in
            keys[index - 1] < keys[index]
                || (keys[index - 1] == keys[index] && IDOrder.precedes(targets[index - 1], targets[index]))
        }
        guard let lookup else { return sorted && targets.count <= Self.lookupThreshold }
        return sorted && lookup.count == targets.count && zip(targets, keys).allSatisfy { lookup[$0] == $1 }
    }
}

/// The deterministic order of ids that breaks ties between equal position keys: the ids' own
/// order when they are `Comparable` (`String`, `Int`, `UUID`), else their description.
@usableFromInline
enum IDOrder {
    @inlinable
    static func precedes<ID>(_ a: ID, _ b: ID) -> Bool {
        if let a = a as? String, let b = b as? String { return a < b }
        if let a = a as? any Comparable, let result = compare(a, b) { return result }
        return String(describing: a) < String(describing: b)
    }

    @usableFromInline
    static func compare<C: Comparable>(_ a: C, _ b: Any) -> Bool? {
        (b as? C).map { a < $0 }
    }
}
