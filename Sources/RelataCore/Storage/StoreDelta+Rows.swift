import Foundation

// A write's `StoreDelta` as rows (`StoreChanges`): the rows of the places the delta names, with
// their values in the state after the write. The state before the write is asked only whether a
// row that goes was stored, and whether a link row's positions changed.

extension StoreDelta {
    /// The rows this delta changes: each touched entity's row (its value and to-one links) or its
    /// erasure, each changed to-many link row, each dynamic relationship made or removed.
    ///
    /// - Parameters:
    ///   - after: The state the write made.
    ///   - before: The state it started from.
    /// - Complexity: O(entries).
    func rows(after: Context, before: Context) throws -> StoreChanges {
        let tables = after.storage.tables
        let delta = self
        let collectLinks = { @Sendable () -> Result<StoreChanges, any Error> in
            Result {
                var changes = StoreChanges()
                for table in tables { try table.descriptor.linkRows(table, delta, after, before, &changes) }
                return changes
            }
        }
        // In a large write, link rows are gathered on another thread while entity payloads are
        // encoded (on every core). This runs on the store's writer queue, never on Swift's
        // cooperative pool, so it may wait for that thread.
        // A context over storage reads what it lacks as it goes: on this thread only.
        let linkJob = count >= ParallelCoding.threshold && after.storage.base == nil ? BackgroundJob(collectLinks) : nil
        var changes = StoreChanges()
        let entities = Result {
            for table in tables { try table.descriptor.entityRows(table, delta, after, before, &changes) }
        }
        let links = try (linkJob?.wait() ?? collectLinks()).get()
        try entities.get()
        changes.upsertedLinks = links.upsertedLinks
        changes.deletedLinks = links.deletedLinks
        let wasStored: (DynamicLink, DynamicLinkRecord) -> Bool
        if let base = before.storage.base, !dynamicLinks.isEmpty {
            // Over storage: which of them are stored, asked in one batch (a read that fails is
            // kept by the base, and the write then fails with it).
            let asked = try dynamicLinks.map { try $0.link.record() }
            let stored = Set(base.read { try $0.fetchDynamicLinks(asked) } ?? [])
            wasStored = { stored.contains($1) }
        } else {
            let dynamicBefore = before.storage.dynamic
            wasStored = { link, _ in dynamicBefore?.contains(link) ?? false }
        }
        for (link, present) in dynamicLinks {
            let record = try link.record()
            guard present != wasStored(link, record) else { continue }
            if present {
                changes.insertedDynamicLinks.append(record)
            } else {
                changes.deletedDynamicLinks.append(record)
            }
        }
        return changes
    }

    /// The delta's entries for the relation `key` of `Source`, if the write touched it.
    @inlinable
    func relation<Source, Target>(_ key: _AnyRelationKey, of: Source.Type, to: Target.Type) -> RelationDelta<Source, Target>? {
        for table in tables where table.type == ObjectIdentifier(Source.self) {
            for relation in table.relations where relation.key.ordinal == key.ordinal {
                return relation.changes as? RelationDelta<Source, Target>
            }
        }
        return nil
    }
}
