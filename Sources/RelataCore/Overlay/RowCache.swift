import DequeModule
import Synchronization

/// Rows a store's contexts read from storage, shared by all of them and bounded in bytes: entity
/// rows by key (an absent row too), link rows by source, links by target, dynamic links by end,
/// and the last link of lists whose other rows are not held (see `RowCache+Tails.swift`).
///
/// **Invariant**: every entry is the row as of ``State/appliedThrough``, the sequence whose
/// commits the cache has applied. A commit — the store's own, or one another store made, read
/// from the change log — evicts the keys its log record names (O(keys), never O(cache)) and moves
/// `appliedThrough` on; a read inserts what it fetched only if it read as of `appliedThrough`
/// (a read that raced a newer commit keeps nothing). A pruned or undecodable log empties it.
///
/// Beyond ``limit`` bytes (estimated from the rows' sizes), the entries inserted first go first.
@usableFromInline
package final class RowCache: Sendable {
    /// The bytes of rows the cache keeps at most.
    package let limit: Int
    let state: Mutex<State>

    struct State {
        var appliedThrough: Int64
        var entities: [EntityKey: EntityEntry] = [:]
        var links: [LinkSourceKey: (rows: [LinkRecord], bytes: Int)] = [:]
        var sources: [LinkTargetKey: (rows: [LinkRecord], bytes: Int)] = [:]
        var dynamic: [EntityKey: (rows: [DynamicLinkRecord], bytes: Int)] = [:]
        /// The last link of a source's list (`nil`: the list is empty), for lists not in `links`.
        var lastLinks: [LinkSourceKey: (row: LinkRecord?, bytes: Int)] = [:]
        /// The last link to a target (`nil`: none), for targets not in `sources`.
        var lastSources: [LinkTargetKey: (row: LinkRecord?, bytes: Int)] = [:]
        var order = Deque<Key>()
        var bytes = 0

        /// An empty state with room for a first read's rows (a program's first resolve fills
        /// the cache from empty: growing it a key at a time rehashed every key a dozen times).
        init(appliedThrough: Int64) {
            self.appliedThrough = appliedThrough
            entities.reserveCapacity(1_024)
            links.reserveCapacity(256)
            sources.reserveCapacity(256)
            order.reserveCapacity(2_048)
        }
    }

    /// An entity row (`nil`: the entity is absent), its estimated bytes, and the entity decoded
    /// from it once a context did (dropped with the row).
    struct EntityEntry {
        var row: EntityRecord?
        var bytes: Int
        var decoded: AnyObject?
    }

    /// An entity decoded from a row (a class: telling its type is a pointer comparison, not an
    /// existential cast).
    final class Decoded<Entity: Sendable>: @unchecked Sendable {
        let entity: Entity

        init(_ entity: Entity) {
            self.entity = entity
        }
    }

    enum Key: Hashable {
        case entity(EntityKey), links(LinkSourceKey), sources(LinkTargetKey), dynamic(EntityKey)
        case lastLink(LinkSourceKey), lastSource(LinkTargetKey)
    }

    /// An empty cache of rows as of `sequence`, keeping at most `limit` bytes.
    package init(limit: Int, sequence: Int64) {
        self.limit = limit
        state = Mutex(State(appliedThrough: sequence))
    }

    /// The sequence the entries are as of.
    package var sequence: Int64 { state.withLock { $0.appliedThrough } }

    /// Storage's newest commit as last learned, with the commit token of the transaction that
    /// learned it (see ``StorageReader/commitToken()``).
    private let newest = Mutex<(token: Int64, sequence: Int64)?>(nil)

    /// ``sequence`` when it is storage's newest commit: nothing was committed since the store
    /// learned the newest (the backend's commit token is still `token`) and the cache has applied
    /// it; `nil` otherwise.
    func sequenceIfNewest(token: Int64) -> Int64? {
        guard let known = newest.withLock({ $0 }), known.token == token else { return nil }
        return state.withLock { $0.appliedThrough == known.sequence ? known.sequence : nil }
    }

    /// Notes that storage's newest commit was `sequence` while the commit token was `token`
    /// (read in the transaction that saw `sequence`).
    func noteNewest(_ sequence: Int64, token: Int64) {
        newest.withLock { $0 = (token, sequence) }
    }

    /// The estimated bytes held.
    package var bytes: Int { state.withLock { $0.bytes } }

    /// How many times the cache dropped every row because the log could not say what commits
    /// it missed had touched (a record that does not decode, or records pruned): ``Store/fullReloads``.
    let reloads = Atomic<Int>(0)

    /// The sequence of the last commit the cache applied.
    var appliedThrough: Int64 { state.withLock { $0.appliedThrough } }

    /// Applies the commits `reader` sees after ``appliedThrough`` (from the log; `known`: its
    /// bounds, when the caller read them already, and `log` its records, when it read them).
    ///
    /// - Returns: The sequence `reader` reads as of.
    @discardableResult
    func advance(reading reader: any StorageReader, bounds known: ChangeLogBounds? = nil, log: ChangeLogCursor.Read? = nil) throws -> Int64 {
        let bounds = try known ?? reader.logBounds()
        let from = appliedThrough
        guard bounds.last > from else { return bounds.last }
        let read = try ChangeLogCursor.commits(after: from, bounds: bounds, in: reader, known: log)
        state.withLock { state in
            guard state.appliedThrough == from else {
                // Another thread applied commits meanwhile: apply what is still newer.
                if state.appliedThrough < bounds.last { Self.clear(&state, at: bounds.last) }
                return
            }
            guard case .commits(let commits) = read else {
                // Pruned, damaged or missing records: what they touched is unknown.
                Self.clear(&state, at: bounds.last)
                reloads.add(1, ordering: .relaxed)
                return
            }
            for commit in commits { Self.evict(commit.record, from: &state) }
            state.appliedThrough = bounds.last
        }
        return bounds.last
    }

    /// Empties the cache, as of `sequence` (a store opening on the newest commit: the log before it
    /// is not read).
    func reset(to sequence: Int64) {
        state.withLock { Self.clear(&$0, at: sequence) }
    }

    /// Applies the store's own commit `sequence`, made by a write that read as of `after`, and
    /// keeps `tails`, the last links of lists it appended to (``tails(after:at:)``).
    func applyCommit(_ record: ChangeLogRecord, after: Int64, sequence: Int64, tails: ListTails = ListTails()) {
        state.withLock { state in
            Self.evict(record, from: &state)
            guard state.appliedThrough == after else { return }
            state.appliedThrough = sequence
            if !tails.isEmpty { keep(tails, in: &state) }
        }
    }

    private static func clear(_ state: inout State, at sequence: Int64) {
        state = State(appliedThrough: sequence)
    }

    private static func evict(_ record: ChangeLogRecord, from state: inout State) {
        for key in record.entities {
            if let old = state.entities.removeValue(forKey: key) { state.bytes -= old.bytes }
        }
        for key in record.linkSources {
            if let old = state.links.removeValue(forKey: key) { state.bytes -= old.bytes }
            if let old = state.lastLinks.removeValue(forKey: key) { state.bytes -= old.bytes }
        }
        for key in record.linkTargets {
            if let old = state.sources.removeValue(forKey: key) { state.bytes -= old.bytes }
            if let old = state.lastSources.removeValue(forKey: key) { state.bytes -= old.bytes }
        }
        for link in record.dynamicLinks {
            for end in [EntityKey(type: link.sourceType, id: link.source), EntityKey(type: link.targetType, id: link.target)] {
                if let old = state.dynamic.removeValue(forKey: end) { state.bytes -= old.bytes }
            }
        }
    }

    /// The cached rows of `keys` as of `sequence`, in the order of `keys`: `.some(nil)` for an
    /// entity known absent, `nil` for a key not cached; `nil` for all when the cache is not as
    /// of `sequence`.
    func entities(_ keys: [EntityKey], at sequence: Int64) -> [EntityRecord??]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            // By index: the row is copied, not the whole entry.
            return keys.map { key in state.entities.index(forKey: key).map { state.entities.values[$0].row } }
        }
    }

    /// The cached link rows of each of `keys` (sources) as of `sequence`, in the order of
    /// `keys` (`nil` for a list not cached); `nil` when the cache is not as of `sequence`.
    func links(_ keys: [LinkSourceKey], at sequence: Int64) -> [[LinkRecord]?]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { key in state.links[key]?.rows }
        }
    }

    /// The cached links to each of `keys` (targets), as ``links(_:at:)`` gives sources' lists.
    func sources(_ keys: [LinkTargetKey], at sequence: Int64) -> [[LinkRecord]?]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { key in state.sources[key]?.rows }
        }
    }

    func dynamicLinks(_ keys: [EntityKey], at sequence: Int64) -> [EntityKey: [DynamicLinkRecord]]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return Dictionary(uniqueKeysWithValues: keys.compactMap { key in state.dynamic[key].map { (key, $0.rows) } })
        }
    }

    /// Keeps rows read as of `sequence` (nothing when the cache has moved on since); a key given
    /// twice is kept once.
    ///
    /// - Returns: `false` when the cache keeps none of the rows (it moved on) or had to drop some
    ///   of those it inserted to stay within ``limit``. (A row it held already, and dropped for
    ///   these, goes unnoticed.)
    @discardableResult
    func insert(
        entities: [(EntityKey, EntityRecord?)] = [], links: [(LinkSourceKey, [LinkRecord])] = [],
        sources: [(LinkTargetKey, [LinkRecord])] = [], dynamic: [EntityKey: [DynamicLinkRecord]] = [:], at sequence: Int64
    ) -> Bool {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return false }
            let held = state.order.count
            // Each key is looked up once: an entry held already (read as of the same sequence,
            // so the same row) is put back as it was, with the entity decoded from it.
            for (key, row) in entities {
                // The row, and room for the entity decoded from it (about as large).
                let bytes = 2 * Self.size(row)
                guard Self.keep(EntityEntry(row: row, bytes: bytes), at: key, in: &state.entities) else { continue }
                state.order.append(.entity(key))
                state.bytes += bytes
            }
            for (key, rows) in links {
                let bytes = rows.reduce(64) { $0 + Self.size($1) }
                guard Self.keep((rows, bytes), at: key, in: &state.links) else { continue }
                state.order.append(.links(key))
                state.bytes += bytes
            }
            for (key, rows) in sources {
                let bytes = rows.reduce(64) { $0 + Self.size($1) }
                guard Self.keep((rows, bytes), at: key, in: &state.sources) else { continue }
                state.order.append(.sources(key))
                state.bytes += bytes
            }
            for (key, rows) in dynamic {
                let bytes = rows.reduce(64) { $0 + 96 + $1.source.utf8.count + $1.target.utf8.count }
                guard Self.keep((rows, bytes), at: key, in: &state.dynamic) else { continue }
                state.order.append(.dynamic(key))
                state.bytes += bytes
            }
            // The order is oldest first: trimming reaches these rows only past what it held before.
            return trim(&state) <= held
        }
    }

    /// Drops the entries inserted first while the cache holds more than ``limit`` bytes, and now
    /// and then the places in the order of keys commits evicted.
    ///
    /// - Returns: How many places of the order it dropped to keep within ``limit``.
    @discardableResult
    func trim(_ state: inout State) -> Int {
        var dropped = 0
        while state.bytes > limit, let oldest = state.order.popFirst() {
            dropped += 1
            let removed: Int?
            switch oldest {
            case .entity(let key):
                removed = state.entities.removeValue(forKey: key)?.bytes
            case .links(let key): removed = state.links.removeValue(forKey: key)?.bytes
            case .sources(let key): removed = state.sources.removeValue(forKey: key)?.bytes
            case .dynamic(let key): removed = state.dynamic.removeValue(forKey: key)?.bytes
            case .lastLink(let key): removed = state.lastLinks.removeValue(forKey: key)?.bytes
            case .lastSource(let key): removed = state.lastSources.removeValue(forKey: key)?.bytes
            }
            state.bytes -= removed ?? 0
        }
        // Keys evicted by commits leave stale places in the order (a key kept again has two):
        // drop them now and then, each key keeping its last place, so that the order holds at
        // most one place per key after and the work stays O(1) per insertion on average.
        let held = state.entities.count + state.links.count + state.sources.count + state.dynamic.count + state.lastLinks.count + state.lastSources.count
        if state.order.count > 4 * held + 1_024 {
            var seen = Set<Key>(minimumCapacity: held)
            var kept: [Key] = []
            kept.reserveCapacity(held)
            for key in state.order.reversed() where seen.insert(key).inserted {
                let isHeld: Bool
                switch key {
                case .entity(let key): isHeld = state.entities[key] != nil
                case .links(let key): isHeld = state.links[key] != nil
                case .sources(let key): isHeld = state.sources[key] != nil
                case .dynamic(let key): isHeld = state.dynamic[key] != nil
                case .lastLink(let key): isHeld = state.lastLinks[key] != nil
                case .lastSource(let key): isHeld = state.lastSources[key] != nil
                }
                if isHeld { kept.append(key) }
            }
            state.order = Deque(kept.reversed())
        }
        return dropped
    }

    /// The entities decoded from `records` before, where the cache still holds those very rows.
    @usableFromInline
    func decoded<Entity: EntityModelProtocol>(_ records: [EntityRecord], as _: Entity.Type) -> [Entity?] {
        // The lookups are not generic (this function is called unspecialized, from the model's
        // module): one type check per entity, against a type found once.
        let decodedType = ObjectIdentifier(Decoded<Entity>.self)
        return decodedObjects(records).map { object in
            guard let object, ObjectIdentifier(type(of: object)) == decodedType else { return nil }
            return unsafeDowncast(object, to: Decoded<Entity>.self).entity
        }
    }

    /// What the cache decoded from each of `records`, for the rows it holds unchanged.
    private func decodedObjects(_ records: [EntityRecord]) -> [AnyObject?] {
        state.withLock { state in
            records.map { record in
                guard let index = state.entities.index(forKey: EntityKey(type: record.type, id: record.id)) else { return nil }
                let entry = state.entities.values[index]
                guard let object = entry.decoded, entry.row?.sameStoredValues(as: record) == true else { return nil }
                return object
            }
        }
    }

    /// Keeps entities decoded from `records`, for the rows the cache holds unchanged.
    @usableFromInline
    func keepDecoded<Entity: EntityModelProtocol>(_ values: [(record: EntityRecord, entity: Entity)]) {
        state.withLock { state in
            for (record, entity) in values {
                guard let index = state.entities.index(forKey: EntityKey(type: record.type, id: record.id)),
                    state.entities.values[index].row?.sameStoredValues(as: record) == true
                else { continue }
                state.entities.values[index].decoded = Decoded(entity)
            }
        }
    }

    /// Puts `value` under `key` unless `entries` holds the key already, which is then put back as
    /// it was (one lookup when it is not held); whether `value` was kept.
    static func keep<Key: Hashable, Value>(_ value: Value, at key: Key, in entries: inout [Key: Value]) -> Bool {
        guard let held = entries.updateValue(value, forKey: key) else { return true }
        entries[key] = held
        return false
    }

    private static func size(_ row: EntityRecord?) -> Int {
        guard let row else { return 64 }
        return 96 + row.id.utf8.count + row.storedBytes + row.toOne.reduce(0) { $0 + 48 + $1.target.utf8.count + ($1.inversePosition?.utf8.count ?? 0) }
    }

    static func size(_ row: LinkRecord) -> Int {
        96 + row.source.utf8.count + row.target.utf8.count + (row.position?.utf8.count ?? 0) + (row.inversePosition?.utf8.count ?? 0)
    }
}
