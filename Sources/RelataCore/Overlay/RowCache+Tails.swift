/// The last links of lists, as a write appends after them.
///
/// A write that appends to a list places the new links after the list's last one, read from
/// storage (``StorageReader/fetchLastLinks(of:)``, ``StorageReader/fetchLastSources(of:)``). The
/// cache keeps what those reads found, and after each of the store's own commits the new last link
/// of the lists the commit appended to, so that a store's next write to the same list reads none.
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
    /// The last link of each of `keys`' lists as of `sequence`, in the order of `keys`:
    /// `.some(nil)` for a list known empty, `nil` for a list whose tail is not cached; `nil` for
    /// all when the cache is not as of `sequence`. A list held whole gives its last row.
    func lastLinks(_ keys: [LinkSourceKey], at sequence: Int64) -> [LinkRecord??]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { key -> LinkRecord?? in
                if let list = state.links[key] { return .some(list.rows.last) }
                guard let tail = state.lastLinks[key] else { return nil }
                return .some(tail.row)
            }
        }
    }

    /// The last link to each of `keys` as of `sequence`, as ``lastLinks(_:at:)``.
    func lastSources(_ keys: [LinkTargetKey], at sequence: Int64) -> [LinkRecord??]? {
        state.withLock { state in
            guard state.appliedThrough == sequence else { return nil }
            return keys.map { key -> LinkRecord?? in
                if let list = state.sources[key] { return .some(list.rows.last) }
                guard let tail = state.lastSources[key] else { return nil }
                return .some(tail.row)
            }
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
    /// links written to it, when every one of them comes after the tail before. Lists it only
    /// removed from, or wrote to elsewhere than after their tail, are left out (their tails are
    /// read again).
    func tails(after changes: StoreChanges, at sequence: Int64) -> ListTails {
        var bySource: [LinkSourceKey: [LinkRecord]] = [:], byTarget: [LinkTargetKey: [LinkRecord]] = [:]
        for link in changes.upsertedLinks {
            bySource[LinkSourceKey(type: link.type, relation: link.relation, source: link.source), default: []].append(link)
            byTarget[LinkTargetKey(type: link.type, relation: link.relation, target: link.target), default: []].append(link)
        }
        for row in changes.upsertedEntities {
            for link in row.toOne {
                let record = LinkRecord(type: row.type, relation: link.relation, source: row.id, target: link.target, position: nil, inversePosition: link.inversePosition)
                byTarget[LinkTargetKey(type: row.type, relation: link.relation, target: link.target), default: []].append(record)
            }
        }
        guard !bySource.isEmpty || !byTarget.isEmpty else { return ListTails() }
        let sourceKeys = Array(bySource.keys), targetKeys = Array(byTarget.keys)
        var tails = ListTails()
        if let known = lastLinks(sourceKeys, at: sequence) {
            for (key, old) in zip(sourceKeys, known) {
                guard let old, let new = Self.last(of: bySource[key]!, after: old, by: LinkRecord.positionOrder) else { continue }
                tails.lastLinks[key] = new
            }
        }
        if let known = lastSources(targetKeys, at: sequence) {
            for (key, old) in zip(targetKeys, known) {
                guard let old, let new = Self.last(of: byTarget[key]!, after: old, by: LinkRecord.inverseOrder) else { continue }
                tails.lastSources[key] = new
            }
        }
        return tails
    }

    /// The greatest of `written` by `order` when each comes after `old` (a list's last link before
    /// them; `nil`: the list was empty), and no two of them tie; `nil` otherwise.
    private static func last(of written: [LinkRecord], after old: LinkRecord?, by order: (LinkRecord, LinkRecord) -> Bool) -> LinkRecord? {
        var last: LinkRecord?
        for record in written {
            if let old, !order(old, record) { return nil }
            if let current = last {
                guard order(current, record) || order(record, current) else { return nil }
                if order(current, record) { last = record }
            } else {
                last = record
            }
        }
        return last
    }
}
