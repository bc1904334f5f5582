import Foundation

extension EntityTable {
    /// The entity rows of `delta` for this type: those of the entities stored or erased, and
    /// those of the sources whose to-one links changed (a row holds both, see ``EntityRecord``).
    @inlinable
    func gatherEntityRows(of delta: StoreDelta, after: Context, before: Context, into changes: inout StoreChanges) throws {
        let type = EntitySchema.storageName(of: Entity.self)
        // The entities the write touched come with their values; the reader adds the sources
        // whose to-one links (kept in their rows) changed without their entity.
        let touched = delta.table(of: Entity.self)
        var reader = ToOneLinkReader<Entity>(context: after, table: self, delta: delta, known: touched?.ids ?? [], before: before)
        try Entity._relataVisitRelations(&reader)
        let count = (touched?.entities.count ?? 0) + reader.touchedSources.count
        guard count > 0 else { return }
        var rows: [(id: Entity.ID, entity: Entity?)] = []
        rows.reserveCapacity(count)
        var vanished: [Entity.ID] = []
        func add(_ id: Entity.ID, _ entity: Entity?) {
            if entity == nil, !reader.hasLinks(id) {
                vanished.append(id)
            } else {
                rows.append((id, entity))
            }
        }
        for (id, entity) in touched?.entities ?? [] { add(id, entity) }
        // The entities of sources touched through a link only, read in one batch.
        if !reader.touchedSources.isEmpty { ensure(reader.touchedSources) }
        for id in reader.touchedSources { add(id, entity(id)) }
        // What the links were before the write, for every source at once (a source each would
        // be a read each).
        if !reader.readBefore.isEmpty {
            let sources = rows.map { $0.id } + vanished
            for read in reader.readBefore { read(sources) }
        }
        if !vanished.isEmpty {
            // A row goes when neither its entity nor any to-one link is left, if it was stored.
            let old = before.table(Entity.self)
            if let faulter = old?.faulter, old?.holdsAll == false {
                // Over storage: whether each row exists, from the rows themselves (a row holds
                // the entity and its to-one links), not decoded; ids compared byte for byte.
                let stored = Set((faulter.rows(vanished) ?? []).map { EntityKey(type: type, id: $0.id) })
                for id in vanished {
                    let key = EntityKey(type: type, id: try IDText.encode(id, of: type))
                    if stored.contains(key) { changes.deletedEntities.append(key) }
                }
            } else {
                var previous = ToOneLinkReader<Entity>(context: before, table: old, delta: nil)
                try Entity._relataVisitRelations(&previous)
                for id in vanished where old?.entity(id) != nil || previous.hasLinks(id) {
                    changes.deletedEntities.append(EntityKey(type: type, id: try IDText.encode(id, of: type)))
                }
            }
        }
        // Each row's links, each looked up once: the targets whose list of sources the write
        // changed (the old and the new target of each to-one link set, moved or removed: other
        // stores evict those lists), and the links each stored row keeps as storage held them
        // (its columns may stay as they are). Those are noted only for rows that keep a link (a
        // row that did not exist kept none): a new row is inserted whole, and most rows of a
        // bulk write are new.
        var rowRecords: [[ToOneLinkRecord]] = []
        rowRecords.reserveCapacity(rows.count)
        var kept: [String] = []
        for (id, _) in rows {
            var records: [ToOneLinkRecord] = []
            kept.removeAll(keepingCapacity: true)
            var linked = false
            for rowLink in reader.rowLinks {
                let link = try rowLink(id)
                if let record = link.record { records.append(record) }
                changes.toOneTargets += link.moved
                guard let found = link.unchanged else { continue }
                kept.append(found.relation)
                linked = linked || found.linked
            }
            rowRecords.append(records)
            if linked { changes.unchangedToOne[EntityKey(type: type, id: try IDText.encode(id, of: type))] = Set(kept) }
        }
        for id in vanished { for rowLink in reader.rowLinks { try changes.toOneTargets += rowLink(id).moved } }
        if !rows.isEmpty { changes.indexes[type] = Entity._relataIndexes.compactMap { $0.stored } }
        let stored = entities
        changes.upsertedEntities += try ParallelCoding.map(Array(zip(rows, rowRecords)), serially: after.storage.base != nil, worker: { () }) { _, item in
            let (row, links) = item
            return try PayloadCoding.record(
                of: row.entity, type: type, id: try IDText.encode(row.id, of: type), toOne: links,
                updatedAt: row.entity == nil ? nil : stored.time(of: row.id)
            )
        }
    }

    /// The link rows of `delta` for this type's to-many relations.
    @inlinable
    func gatherLinkRows(of delta: StoreDelta, after: Context, before: Context, into changes: inout StoreChanges) throws {
        var collector = LinkRowCollector<Entity>(delta: delta, after: after, before: before)
        try Entity._relataVisitRelations(&collector)
        changes.upsertedLinks += collector.upserted
        changes.deletedLinks += collector.deleted
    }
}
