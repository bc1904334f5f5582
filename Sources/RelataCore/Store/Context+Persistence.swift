import Foundation

// A Store write tracks which entities and links change, and turns them into rows (`StoreChanges`);
// opening a Store loads rows back into a context.

extension Context {
    /// Starts marking every entity and link source that changes, in this context only.
    mutating func beginTracking() {
        storage = storage.copy()
        storage.tracking = true
        for index in storage.tables.indices {
            let table = storage.tables[index].clone()
            table.setTracking(true)
            storage.tables[index] = table
        }
    }

    /// Stops marking changes. Call before the context is shared.
    mutating func endTracking() {
        if !isKnownUniquelyReferenced(&storage) {
            // A copy escaped the write: leave its tables alone.
            storage = storage.copy()
            for index in storage.tables.indices { storage.tables[index] = storage.tables[index].clone() }
        }
        storage.tracking = false
        for table in storage.tables { table.setTracking(false) }
    }

    /// The rows changed since ``beginTracking()``: each changed entity's new value (or its erasure,
    /// if it existed in `base`), and each changed link (new, moved, or removed) of each side.
    func trackedChanges(since base: Context) throws -> StoreChanges {
        var changes = StoreChanges()
        let encoder = JSONEncoder()
        for table in storage.tables {
            try table.collectChanges(base: base, into: &changes, encoder: encoder)
        }
        return changes
    }
}

extension EntityTable {
    func collectEntityChanges(base: Context, into changes: inout StoreChanges, encoder: JSONEncoder) throws {
        let type = String(describing: Entity.self)
        let old = base.table(Entity.self)
        if let dirty {
            for id in dirty {
                let text = try IDText.encode(id)
                if let entity = entities[id] {
                    changes.upsertedEntities.append(EntityRecord(type: type, id: text, payload: try encoder.encode(entity)))
                } else if old?.entities[id] != nil {
                    changes.deletedEntities.append(EntityKey(type: type, id: text))
                }
            }
        }
        var collector = LinkChangeCollector<Entity>(table: self, old: old, type: type)
        try Entity._relataVisitRelations(&collector)
        changes.upsertedLinks += collector.upserted
        changes.deletedLinks += collector.deleted
    }
}

/// Diffs the dirty sources of each relation of `Entity` against the table before the write.
struct LinkChangeCollector<Entity: EntityModelProtocol>: _RelationVisitor {
    let table: EntityTable<Entity>
    let old: EntityTable<Entity>?
    let type: String
    var upserted: [LinkRecord] = []
    var deleted: [LinkKey] = []

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard let links = table.existingLinkTable(descriptor.key, T.ID.self) as LinkTable<Entity.ID, T.ID>?,
            let dirty = links.dirty, !dirty.isEmpty
        else { return }
        let before = old?.existingLinkTable(descriptor.key, T.ID.self) as LinkTable<Entity.ID, T.ID>?
        let relation = descriptor.name
        for source in dirty {
            let sourceText = try IDText.encode(source)
            func record(_ target: T.ID, _ key: PositionKey?) throws {
                upserted.append(
                    LinkRecord(
                        type: type, relation: relation, source: sourceText, target: try IDText.encode(target),
                        position: key?.description
                    )
                )
            }
            func remove(_ target: T.ID) throws {
                deleted.append(LinkKey(type: type, relation: relation, source: sourceText, target: try IDText.encode(target)))
            }
            if descriptor.key.toMany {
                let new = links.many[source]
                let previous = before?.many[source]
                var oldKeys: [T.ID: PositionKey] = [:]
                if let previous {
                    for (target, key) in zip(previous.targets, previous.keys) { oldKeys[target] = key }
                }
                if let new {
                    for (target, key) in zip(new.targets, new.keys) where oldKeys.removeValue(forKey: target) != key {
                        try record(target, key)
                    }
                }
                for target in oldKeys.keys { try remove(target) }
            } else {
                let new = links.one[source]
                let previous = before?.one[source]
                guard new != previous else { continue }
                if let previous { try remove(previous) }
                if let new { try record(new, nil) }
            }
        }
    }
}
