/// How an ordered to-many relation of one entity changed in a commit, as index paths for
/// `UICollectionView.performBatchUpdates`, `NSTableView` or SwiftUI list animations (the shape of
/// Realm's `RealmCollectionChange.update`).
///
/// Remove the elements at ``deletions`` from the previous list (indexes in the previous list,
/// from the last), then insert ``insertedIDs`` at ``insertions`` (indexes in the new list, from
/// the first): the result is the new list (``applied(to:)`` does it). The change carries no copy
/// of the list, so a long list costs what the change costs; the first value lists every element
/// as an insertion. An element that moved is deleted at its old
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

    /// Indexes in the previous list of the elements removed or moved, ascending.
    public let deletions: [Int]
    /// Indexes in the new list of the elements added or moved, ascending.
    public let insertions: [Int]
    /// The elements at ``insertions``, in the same order.
    public let insertedIDs: [ID]
    /// Indexes in the new list of elements that stayed but whose entity changed, ascending.
    public let modifications: [Int]
    /// The elements that moved (each also in ``deletions`` and ``insertions``), by new index.
    public let moves: [Move]
    /// The number of elements after the change.
    public let count: Int
    /// Whether this is the first value: the whole list as observation started, as insertions
    /// into an empty one.
    public let isInitial: Bool

    /// Applies the deletions and insertions to `previous`, the list before the change.
    public func applied(to previous: [ID]) -> [ID] {
        var list = previous
        for index in deletions.reversed() { list.remove(at: index) }
        for (index, id) in zip(insertions, insertedIDs) { list.insert(id, at: index) }
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
    /// binary search: O(changes · log n) for a list of n after this store's own writes, which
    /// read nothing of the list (the observer keeps its own copy, from the first value). After
    /// commits of other stores (``StoreCommit/Kind/remote``, ``StoreCommit/Kind/reload``), whose
    /// deltas do not name the list a link left, the list is compared with the one before: O(n). Every
    /// change is kept for a reader that lags (each is relative to the one before); commits that
    /// arrive together give one change.
    public func observeChanges<Source: EntityModelProtocol, Target, D, K>(
        of keyPath: KeyPath<Source, Relation<Target, D, Relations.ToMany, K>>, _ source: Source.ID
    ) -> StoreObservation<ListChange<Target.ID>> {
        let key = Source.relationKey(keyPath)
        return StoreObservation(hub: writer.observers, keepsEveryValue: true) { continuation in
            let previous = PreviousList<Target.ID>()
            return ObservationHub.Observer { context, commits in
                let region: Set<RegionKey> = [
                    .links(ObjectIdentifier(Source.self), key.ordinal, AnyHashable(source)), .type(ObjectIdentifier(Target.self)),
                ]
                // After this store's own commits the list is the previous one with the commits'
                // link entries applied: nothing is read (a long list read whole at every append
                // would cost O(n) per commit). Other stores' commits do not name every entry of
                // the list, so after them the list is read.
                let fromEntries = previous.list != nil && !commits.isEmpty
                    && commits.allSatisfy { $0.kind == .local && !$0.reachesEveryObserver }
                let list: OrderedLinks<Target.ID>? =
                    fromEntries
                    ? nil
                    : context.exclusively {
                        context.table(Source.self)?.existingLinkTable(key, Target.ID.self)?.list(of: source) ?? OrderedLinks()
                    }
                // Evaluations run one at a time, on the hub's queue; the previous list changes
                // only when the change is handed out (a list read on a refused state is not one).
                return ObservationHub.Evaluation(keys: region) {
                    guard var old = previous.list else {
                        // The first value (`list` was read: there was no previous one).
                        let list = list ?? OrderedLinks()
                        // A copy of our own from the first change on: keeping the store's list
                        // would make the store copy it at its next write.
                        previous.list = list
                        let all = list.targets
                        continuation.yield(
                            ListChange(
                                deletions: [], insertions: Array(all.indices), insertedIDs: all, modifications: [], moves: [],
                                count: all.count, isInitial: true
                            )
                        )
                        return
                    }
                    previous.list = nil
                    let change = ListChange.between(&old, list, after: commits, source: source, key: key, of: Source.self, to: Target.self)
                    previous.list = old
                    if !change.deletions.isEmpty || !change.insertions.isEmpty || !change.modifications.isEmpty {
                        continuation.yield(change)
                    }
                }
            }
        }
    }
}

extension ListChange {
    /// The change from `old` to `new`, from the targets the commits' entries name; `old` is
    /// brought to `new` along the way (element by element: O(changes · log n), plus the moves
    /// inside its arrays). Without `new` (this store's own commits), each touched target's place
    /// after the commits is the position key of its last entry.
    static func between<Source: EntityModelProtocol, Target: EntityModelProtocol>(
        _ old: inout OrderedLinks<ID>, _ new: OrderedLinks<ID>?, after commits: [StoreCommit],
        source: Source.ID, key: _AnyRelationKey, of _: Source.Type, to _: Target.Type
    ) -> ListChange where Target.ID == ID {
        var touched = Set<ID>()
        var stored = Set<ID>()
        // Each touched target's position key after the commits (`nil`: not in the list).
        var lastKeys: [ID: PositionKey?] = [:]
        for commit in commits {
            if let relation = commit.delta.relation(key, of: Source.self, to: Target.self) {
                for entry in relation.toMany where entry.source == source {
                    touched.insert(entry.target)
                    lastKeys[entry.target] = .some(entry.key)
                }
            }
            for (id, value) in commit.delta.entities(of: Target.self) where value != nil { stored.insert(id) }
        }
        func keyAfter(_ target: ID) -> PositionKey? {
            if let new { return new.key(of: target) }
            return lastKeys[target] ?? old.key(of: target)
        }
        if let new, commits.contains(where: { $0.kind != .local || $0.reachesEveryObserver }) {
            // Other stores' commits: their delta holds the rows they touched as they are now, so
            // a target that left this list (its to-one link moved or removed elsewhere) is not
            // named for it. The two lists are compared instead — O(n) for these commits only.
            for (target, key) in zip(old.targets, old.keys) where new.key(of: target) != key { touched.insert(target) }
            for target in new.targets where old.key(of: target) == nil { touched.insert(target) }
        }
        // Deletions are indexes in the old list: removed from the last.
        var removed: [(index: Int, id: ID)] = []
        var added: [ID] = []
        var moved = Set<ID>()
        for target in touched {
            let before = old.key(of: target)
            let after = keyAfter(target)
            guard before != after else { continue }
            if before != nil, let index = old.index(of: target) { removed.append((index, target)) }
            if after != nil { added.append(target) }
            if before != nil, after != nil { moved.insert(target) }
        }
        removed.sort { $0.index < $1.index }
        var movedFrom: [ID: Int] = [:]
        for (index, id) in removed.reversed() {
            old.remove(at: index)
            if moved.contains(id) { movedFrom[id] = index }
        }
        // Insertions are indexes in the new list: placed in key order, each at its final index.
        var insertions: [(index: Int, id: ID)] = []
        for target in added {
            guard let key = keyAfter(target) else { continue }
            old.place(target, at: key)
        }
        // `old` is the new list now.
        let new = new ?? old
        for target in added { if let index = new.index(of: target) { insertions.append((index, target)) } }
        insertions.sort { $0.index < $1.index }
        let changed = Set(added).union(removed.map { $0.id })
        var modifications: [Int] = []
        for target in stored where !changed.contains(target) {
            if let index = new.index(of: target) { modifications.append(index) }
        }
        let moves = insertions.compactMap { index, id in movedFrom[id].map { Move(from: $0, to: index) } }
        return ListChange(
            deletions: removed.map { $0.index }, insertions: insertions.map { $0.index }, insertedIDs: insertions.map { $0.id },
            modifications: modifications.sorted(), moves: moves, count: new.count, isInitial: false
        )
    }
}

/// The list an observer of changes saw last; used on the observation queue only.
private final class PreviousList<ID: Hashable & Sendable>: @unchecked Sendable {
    var list: OrderedLinks<ID>?
}
