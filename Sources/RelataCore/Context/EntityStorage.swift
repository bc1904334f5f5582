import Foundation

/// The entities of one type by id: the values in one dense array, and a hash table from id to
/// position in it.
///
/// A `Dictionary<ID, Entity>` keeps each entity in its hash table, so every time the table grows
/// each entity is moved to a random place in a new, twice as large block (an entity is often
/// 150-200 bytes): at 100,000 messages that is over a third of the time spent saving them. Here
/// growing moves an `Int` per id in the hash table, and appends to the array by one sequential
/// copy. Lookups cost the same. Erasing moves the last entity into the erased one's place, so the
/// order of ``ids`` and ``values`` is the order of insertion only until the first erasure.
///
/// Each entity's last save time (``Metadata/updatedAt``) is in its slot too (``times``): a save
/// finds the slot once for both, where a table of times by id hashed the id a second time (a
/// tenth of an in-memory save).
@usableFromInline
struct EntityStorage<ID: Hashable, Entity> {
    /// The position of each id in ``ids`` and ``values``.
    @usableFromInline var positions: [ID: Int] = [:]
    /// The ids, at the position of their entity.
    @usableFromInline var ids: ContiguousArray<ID> = []
    /// The entities.
    @usableFromInline var values: ContiguousArray<Entity> = []
    /// When each entity was last saved, at its position; `nil` where that is not known (an
    /// entity set without a time: a change applied, a row read without one).
    @usableFromInline var times: ContiguousArray<Date?> = []

    @inlinable
    init() {}

    /// The number of entities.
    @inlinable
    var count: Int { values.count }

    /// Whether there is no entity.
    @inlinable
    var isEmpty: Bool { values.isEmpty }

    /// The entity `id`, or `nil`. Setting `nil` erases it.
    @inlinable
    subscript(id: ID) -> Entity? {
        get {
            guard let position = positions[id] else { return nil }
            return values[position]
        }
        set {
            if let newValue {
                store(newValue, for: id)
            } else {
                remove(id)
            }
        }
    }

    /// Stores `entity` as the entity `id`: in its place (keeping its time), or appended without
    /// a time (one hash lookup either way).
    @inlinable
    mutating func store(_ entity: Entity, for id: ID) {
        _ = place(entity, for: id, timeIfNew: nil)
    }

    /// Stores `entity` as the entity `id`, saved at `time`, with one hash lookup.
    ///
    /// - Returns: The time it had, if any.
    @inlinable
    mutating func store(_ entity: Entity, for id: ID, savedAt time: Date) -> Date? {
        guard let position = place(entity, for: id, timeIfNew: time) else { return nil }
        defer { times[position] = time }
        return times[position]
    }

    /// Puts `entity` in the slot of `id` (one hash lookup): returns that slot, or appends a new
    /// one with `timeIfNew` and returns `nil`.
    @inlinable
    mutating func place(_ entity: Entity, for id: ID, timeIfNew: Date?) -> Int? {
        let end = values.count
        let position = Self.value(of: &positions[id, default: end])
        guard position != end else {
            ids.append(id)
            values.append(entity)
            times.append(timeIfNew)
            return nil
        }
        values[position] = entity
        return position
    }

    /// The time the entity `id` was last saved, if it is stored and its time is known.
    @inlinable
    func time(of id: ID) -> Date? {
        guard let position = positions[id] else { return nil }
        return times[position]
    }

    /// Sets the time of the stored entity `id`; nothing when it is not stored.
    ///
    /// - Returns: The time it had, if any.
    @inlinable
    mutating func setTime(_ time: Date?, for id: ID) -> Date? {
        guard let position = positions[id] else { return nil }
        defer { times[position] = time }
        return times[position]
    }

    /// Every entity's time, by id (for checks and for sorting them once).
    var timesByID: [ID: Date] {
        var byID: [ID: Date] = [:]
        for (id, time) in zip(ids, times) { if let time { byID[id] = time } }
        return byID
    }

    /// Reads an `inout` value: passing `&positions[id, default: end]` finds or inserts the id with
    /// one hash lookup.
    @inlinable
    static func value(of slot: inout Int) -> Int { slot }

    /// Erases the entity `id`, if stored: the last entity takes its place.
    @inlinable
    mutating func remove(_ id: ID) {
        guard let position = positions.removeValue(forKey: id) else { return }
        let last = values.count - 1
        if position != last {
            values.swapAt(position, last)
            ids.swapAt(position, last)
            times.swapAt(position, last)
            positions[ids[position]] = position
        }
        values.removeLast()
        ids.removeLast()
        times.removeLast()
    }

    /// Makes room for `capacity` entities in all.
    @inlinable
    mutating func reserveCapacity(_ capacity: Int) {
        positions.reserveCapacity(capacity)
        ids.reserveCapacity(capacity)
        values.reserveCapacity(capacity)
        times.reserveCapacity(capacity)
    }
}

extension EntityStorage: Sendable where ID: Sendable, Entity: Sendable {}
