/// The last links of lists, as a write appends after them.
///
/// A write that appends to a list places the new links after the list's last one, read from
/// storage (``StorageReader/fetchLastLinks(of:)``, ``StorageReader/fetchLastSources(of:)``). The
/// cache keeps what those reads found, and after each of the store's own commits the new last link
/// of the lists the commit appended to, so that a store's next write to the same list reads none.
///
/// Only for small writes — an app appending a message — which append to the same lists again: a
/// bulk write touches many lists once each, and keeping their tails cost W1's bulk save through
/// SQLite 7% for no read saved (measured). Tails are kept when at most ``keptTailsPerWrite`` are
/// read at once, and after commits of at most as many rows.
///
/// Exact by construction: a commit evicts the tails of every list its log record names (another
/// store's commits too); the tail kept after the store's own commit is the greatest of the links
/// it wrote to the list only when each of them comes after the list's tail before it — then no
/// link that stayed or left can come last.
struct ListTails: Sendable {
    /// The last link of each source's list (`nil`: empty).
    var lastLinks: [LinkSourceKey: LinkRecord?] = [:]
    /// The last link to each target (`nil`: none).
    var lastSources: [LinkTargetKey: LinkRecord?] = [:]

    var isEmpty: Bool { lastLinks.isEmpty && lastSources.isEmpty }
}

extension RowCache {
    /// The most tails one read keeps, and rows one commit may write for the store to keep the
    /// tails it appended to.
    static let keptTailsPerWrite = 16

    /// The last link of each of `keys`' lists as of `sequence`, in the order of `keys`:
    /// `.some(nil)` for a list known empty, `nil` for a list whose tail is not cached; `nil` for
    /// all when the cache is not as of `sequence`. A list held whole gives its last row.
    func lastLinks(_ keys: [LinkSourceKey], at sequence: Int64) -> [LinkRecord??]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { Self.knownTail(state.links[$0]?.rows, state.lastLinks[$0]) }
        }
    }

    /// The last link to each of `keys` as of `sequence`, as ``lastLinks(_:at:)``.
    func lastSources(_ keys: [LinkTargetKey], at sequence: Int64) -> [LinkRecord??]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { Self.knownTail(state.sources[$0]?.rows, state.lastSources[$0]) }
        }
    }

    /// Keeps tails read as of `sequence` (nothing when the cache has moved on since).
    func insert(tails: ListTails, at sequence: Int64) {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return }
            keep(tails, in: &state)
        }
    }

    /// Puts `tails` in `state` and trims it to the limit.
    func keep(_ tails: ListTails, in state: inout State) {
        for (key, row) in tails.lastLinks {
            let bytes = 64 + (row.map(Self.size) ?? 0)
            guard Self.keep((row, bytes), at: key, in: &state.lastLinks) else { continue }
            state.order.append(.lastLink(key))
            state.bytes += bytes
        }
        for (key, row) in tails.lastSources {
            let bytes = 64 + (row.map(Self.size) ?? 0)
            guard Self.keep((row, bytes), at: key, in: &state.lastSources) else { continue }
            state.order.append(.lastSource(key))
            state.bytes += bytes
        }
        trim(&state)
    }

    /// The last links of the lists `changes` appends to, once committed, for the lists whose tail
    /// the cache knows as of `sequence` (the state the write read): for each, the greatest of the
    /// links written to it, when every one of them comes after the tail before and no two tie.
    /// Lists it only removed from, or wrote to elsewhere than after their tail, are left out
    /// (their tails are read again). One pass, one lookup per link written.
    func tails(after changes: StoreChanges, at sequence: Int64) -> ListTails {
        state.withLock { state in
            guard state.appliedThrough == sequence, !(state.links.isEmpty && state.lastLinks.isEmpty && state.sources.isEmpty && state.lastSources.isEmpty)
            else { return ListTails() }
            var lastLinks = Appended<LinkSourceKey>(order: LinkRecord.positionOrder)
            var lastSources = Appended<LinkTargetKey>(order: LinkRecord.inverseOrder)
            for link in changes.upsertedLinks {
                let source = LinkSourceKey(type: link.type, relation: link.relation, source: link.source)
                if let old = Self.knownTail(state.links[source]?.rows, state.lastLinks[source]) { lastLinks.add(link, to: source, after: old) }
                let target = LinkTargetKey(type: link.type, relation: link.relation, target: link.target)
                if let old = Self.knownTail(state.sources[target]?.rows, state.lastSources[target]) { lastSources.add(link, to: target, after: old) }
            }
            for row in changes.upsertedEntities {
                for link in row.toOne {
                    let target = LinkTargetKey(type: row.type, relation: link.relation, target: link.target)
                    guard let old = Self.knownTail(state.sources[target]?.rows, state.lastSources[target]) else { continue }
                    let record = LinkRecord(type: row.type, relation: link.relation, source: row.id, target: link.target, position: nil, inversePosition: link.inversePosition)
                    lastSources.add(record, to: target, after: old)
                }
            }
            return ListTails(lastLinks: lastLinks.tails, lastSources: lastSources.tails)
        }
    }

    /// The tail a list held whole (`list`) or its tail's entry (`tail`) give: `.some(nil)` for an
    /// empty list, `nil` when neither is held. (The entry, not its row: `entry?.row` would flatten
    /// "not held" into "empty".)
    private static func knownTail(_ list: [LinkRecord]?, _ tail: (row: LinkRecord?, bytes: Int)?) -> LinkRecord?? {
        if let list { return .some(list.last) }
        guard let tail else { return nil }
        return .some(tail.row)
    }

    /// The new tails of the lists a commit wrote to, as its links are added one by one.
    private struct Appended<Key: Hashable> {
        let order: (LinkRecord, LinkRecord) -> Bool
        private(set) var tails: [Key: LinkRecord?] = [:]
        private var refused: Set<Key> = []

        init(order: @escaping (LinkRecord, LinkRecord) -> Bool) {
            self.order = order
        }

        /// Takes `record`, written to `key`'s list whose tail was `old` (`nil`: empty): the list's
        /// tail becomes unknown when `record` does not come after `old` or ties with another.
        mutating func add(_ record: LinkRecord, to key: Key, after old: LinkRecord?) {
            guard !refused.contains(key) else { return }
            if let old, !order(old, record) { return refuse(key) }
            guard let current = tails[key] ?? nil else {
                tails[key] = record
                return
            }
            if order(current, record) {
                tails[key] = record
            } else if !order(record, current) {
                refuse(key)
            }
        }

        private mutating func refuse(_ key: Key) {
            refused.insert(key)
            tails[key] = nil
        }
    }
}
