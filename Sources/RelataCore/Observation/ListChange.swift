/// How an ordered to-many relation of one entity changed in a commit, as index paths for
/// `UICollectionView.performBatchUpdates`, `NSTableView` or SwiftUI list animations (the shape of
/// Realm's `RealmCollectionChange.update`).
///
/// Remove the elements at ``deletions`` from the previous list (indexes in the previous list,
/// from the last), then insert the new list's elements at ``insertions`` (indexes in the new
/// list, from the first): the result is ``ids``. An element that moved is deleted at its old
/// index and inserted at its new one, and listed in ``moves`` too, for views that animate moves
/// (`moveItem(at:to:)`). ``modifications`` are the indexes, in the new list, of elements whose
/// entity the commit stored and that stayed where they were.
public struct ListChange<ID: Hashable & Sendable>: Sendable, Equatable {
    /// An element that moved: its index in the previous list and in the new one.
    public struct Move: Sendable, Hashable {
        /// The index in the previous list.
        public let from: Int
        /// The index in the new list.
        public let to: Int
    }

    /// The list after the commit.
    public let ids: [ID]
    /// Indexes in the previous list of the elements removed or moved, ascending.
    public let deletions: [Int]
    /// Indexes in ``ids`` of the elements added or moved, ascending.
    public let insertions: [Int]
    /// Indexes in ``ids`` of elements that stayed but whose entity changed, ascending.
    public let modifications: [Int]
    /// The elements that moved (each also in ``deletions`` and ``insertions``), by new index.
    public let moves: [Move]
    /// Whether this is the first value: the list as observation started, with no changes.
    public let isInitial: Bool

    /// Applies the deletions and insertions to `previous`.
    public func applied(to previous: [ID]) -> [ID] {
        var list = previous
        for index in deletions.reversed() { list.remove(at: index) }
        for index in insertions { list.insert(ids[index], at: index) }
        return list
    }
}

extension Store {
    /// The changes of one entity's ordered to-many relation: the list at once, then, after each
    /// commit that changed it (or stored one of its elements), the indexes deleted, inserted and
    /// modified.
    ///
    /// ```swift
    /// for try await change in store.observeChanges(of: \Chat.$messages, "c1") {
    ///     tableView.performBatchUpdates {
    ///         tableView.deleteRows(at: change.deletions.map { IndexPath(row: $0, section: 0) }, with: .automatic)
    ///         tableView.insertRows(at: change.insertions.map { IndexPath(row: $0, section: 0) }, with: .automatic)
    ///         tableView.reloadRows(at: change.modifications.map { IndexPath(row: $0, section: 0) }, with: .automatic)
    ///     }
    /// }
    /// ```
    ///
    /// The indexes come from the commits' link entries and the position keys, each found by a
    /// binary search: O(changes · log n) for a list of n, never a diff of the whole list. Every
    /// change is kept for a reader that lags (each is relative to the one before); commits that
    /// arrive together give one change.
    public func observeChanges<Source: EntityModelProtocol, Target, D, K>(
        of keyPath: KeyPath<Source, Relation<Target, D, Relations.ToMany, K>>, _ source: Source.ID
    ) -> StoreObservation<ListChange<Target.ID>> {
        let key = Source.relationKey(keyPath)
        return StoreObservation(hub: writer.observers, keepsEveryValue: true) { continuation in
            let previous = PreviousList<Target.ID>()
            return ObservationHub.Observer { context, commits in
                let list = context.table(Source.self)?.existingLinkTable(key, Target.ID.self)?.many[source] ?? OrderedLinks()
                defer { previous.list = list }
                let region: Set<RegionKey> = [
                    .links(ObjectIdentifier(Source.self), key.ordinal, AnyHashable(source)), .type(ObjectIdentifier(Target.self)),
                ]
                guard let old = previous.list else {
                    continuation.yield(ListChange(ids: list.targets, deletions: [], insertions: [], modifications: [], moves: [], isInitial: true))
                    return region
                }
                let change = ListChange.between(old, list, after: commits, source: source, key: key, of: Source.self, to: Target.self)
                if !change.deletions.isEmpty || !change.insertions.isEmpty || !change.modifications.isEmpty {
                    continuation.yield(change)
                }
                return region
            }
        }
    }
}

extension ListChange {
    /// The change from `old` to `new`, from the targets the commits' entries name.
    static func between<Source: EntityModelProtocol, Target: EntityModelProtocol>(
        _ old: OrderedLinks<ID>, _ new: OrderedLinks<ID>, after commits: [StoreCommit],
        source: Source.ID, key: _AnyRelationKey, of _: Source.Type, to _: Target.Type
    ) -> ListChange where Target.ID == ID {
        var touched = Set<ID>()
        var stored = Set<ID>()
        for commit in commits {
            if let relation = commit.delta.relation(key, of: Source.self, to: Target.self) {
                for entry in relation.toMany where entry.source == source { touched.insert(entry.target) }
            }
            for (id, value) in commit.delta.entities(of: Target.self) where value != nil { stored.insert(id) }
        }
        var deletions: [Int] = []
        var insertions: [Int] = []
        var moves: [Move] = []
        for target in touched {
            let before = old.key(of: target)
            let after = new.key(of: target)
            guard before != after else { continue }
            let from = before == nil ? nil : old.index(of: target)
            let to = after == nil ? nil : new.index(of: target)
            if let from { deletions.append(from) }
            if let to { insertions.append(to) }
            if let from, let to { moves.append(Move(from: from, to: to)) }
        }
        var modifications: [Int] = []
        for target in stored where !touched.contains(target) || old.key(of: target) == new.key(of: target) {
            if old.key(of: target) != nil, let index = new.index(of: target) { modifications.append(index) }
        }
        return ListChange(
            ids: new.targets, deletions: deletions.sorted(), insertions: insertions.sorted(), modifications: modifications.sorted(),
            moves: moves.sorted { $0.to < $1.to }, isInitial: false
        )
    }
}

/// The list an observer of changes saw last; used on the observation queue only.
private final class PreviousList<ID: Hashable & Sendable>: @unchecked Sendable {
    var list: OrderedLinks<ID>?
}
