import Foundation

/// How a context over storage reads each kind of thing it does not hold, as closures made where
/// the types are known, once per type and relation (``OverlayPlan``), each given the base it
/// reads at every call: rows fetched by key in one batch, typed the way a whole load types them
/// (`ContextLoader`). Inlinable, so that `_EntityStoreDescriptor` builds them specialized in the
/// model's own module (a fault then looks no generic metadata up at run time).
@usableFromInline
enum OverlayReads {
    /// The entities of `Entity` by id, and all of them in pages.
    @inlinable
    static func entities<Entity: EntityModelProtocol>(_: Entity.Type) -> EntityReads<Entity> {
        let type = EntitySchema.storageName(of: Entity.self)
        func decode(_ records: [EntityRecord], into found: inout EntityReads<Entity>.Found, base: ContextBase) throws {
            found.rows += records
            found.entities.reserveCapacity(found.entities.count + records.count)
            found.times.reserveCapacity(found.times.count + records.count)
            let decoders = PayloadCoding.Decoders()
            // Entities another context decoded from these very rows come from the store's cache.
            let cached = base.cache?.decoded(records, as: Entity.self) ?? []
            var decoded: [(record: EntityRecord, entity: Entity)] = []
            defer { if !decoded.isEmpty { base.cache?.keepDecoded(decoded) } }
            for (index, record) in records.enumerated() where record.hasEntity {
                if index < cached.count, let entity = cached[index] {
                    found.entities.append((entity.id, entity))
                    found.times.append(record.updatedAt)
                    continue
                }
                do {
                    let entity = try PayloadCoding.decodeEntity(Entity.self, from: record, with: decoders)
                    // A row whose payload names another id gives no entity: an entity is placed
                    // only under the id of its own row.
                    guard (try? IDText.decode(record.id, as: Entity.ID.self)) == entity.id else { continue }
                    found.entities.append((entity.id, entity))
                    found.times.append(record.updatedAt)
                    if base.cache != nil { decoded.append((record, entity)) }
                } catch {
                    throw record.undecodable(error)
                }
            }
        }
        func keys(_ ids: [Entity.ID]) -> [EntityKey] {
            ids.compactMap { id in (try? IDText.encode(id, of: type)).map { EntityKey(type: type, id: $0) } }
        }
        // The rows of the type after the id `after` that pass `filters`, `limit` of them in id
        // order, into `found`; the id of the last when there may be more.
        func page(
            _ reader: any StorageReader, _ filters: [ColumnFilter], after: String?, limit: Int, into found: inout EntityReads<Entity>.Found,
            base: ContextBase
        ) throws -> String? {
            let page = try reader.fetchEntities(of: type, prefiltered: filters, after: after, limit: limit)
            guard let last = page.last else { return nil }
            // Pages move forward in id order; a page that does not (a damaged row whose id is
            // not text sorts after every text) would be read forever.
            if let after, !after.utf8.lexicographicallyPrecedes(last.id.utf8) {
                throw RelataError(
                    code: .corruptedStore, entityType: type, id: last.id,
                    message: "the stored rows of \(type) are damaged: the row \"\(last.id)\" comes after \"\(after)\" in id order"
                )
            }
            try decode(page, into: &found, base: base)
            return page.count < limit ? nil : last.id
        }
        // Every row of the type that passes `filters` (all of them when there is none), read in
        // pages in id order.
        func pages(_ reader: any StorageReader, _ filters: [ColumnFilter], _ base: ContextBase) throws -> EntityReads<Entity>.Found {
            var found = EntityReads<Entity>.Found()
            var after: String?
            repeat {
                after = try page(reader, filters, after: after, limit: 1_000, into: &found, base: base)
            } while after != nil
            return found
        }
        return EntityReads<Entity>(
            read: { base, ids in
                base.read { reader in
                    var found = EntityReads<Entity>.Found()
                    try decode(try reader.fetchEntities(keys(ids)), into: &found, base: base)
                    return found
                }
            },
            readAll: { base in base.read(cached: false) { reader in try pages(reader, [], base) } },
            readMatching: { base, filters in base.read(cached: false) { reader in try pages(reader, filters, base) } },
            readPage: { base, filters, after, limit in
                base.read(cached: false) { reader in
                    var found = EntityReads<Entity>.Found()
                    let last = try page(reader, filters, after: after, limit: limit, into: &found, base: base)
                    return (found, last)
                }
            },
            readFirst: { base, filters, order, count, skipping in
                base.read(cached: false) { reader in
                    guard let first = try reader.fetchFirstEntities(of: type, prefiltered: filters, orderedBy: order, count: count, skipping: skipping)
                    else {
                        return try pages(reader, filters, base)
                    }
                    var found = EntityReads<Entity>.Found()
                    try decode(first.records, into: &found, base: base)
                    found.skipped = first.skipped
                    found.isExact = first.isExact
                    return found
                }
            },
            readCount: { base, filters in
                base.read(cached: false) { reader -> (count: Int, untested: EntityReads<Entity>.Found)? in
                    guard let counted = try reader.countEntities(of: type, prefiltered: filters) else { return nil }
                    var found = EntityReads<Entity>.Found()
                    try decode(counted.untested, into: &found, base: base)
                    return (counted.count, found)
                } ?? nil
            },
            readFullText: { base, properties, tokens, containing, excluding in
                base.read(cached: false) { reader in
                    try reader.fetchFullTextCandidates(of: type, properties: properties, tokens: tokens, containing: containing, excluding: excluding)
                } ?? nil
            },
            rows: { base, ids in base.read { reader in try reader.fetchEntities(keys(ids)) } },
            count: { base in base.read(cached: false) { try $0.fetchEntityCount(of: type) } },
            keys: keys
        )
    }

    /// The links of sources through one side of `d`: from the rows that side stores (its
    /// entity rows' to-one column, or its link rows), or, for the side whose pairs the other side
    /// stores, the sources of the other side's links to it, in their order.
    ///
    /// `withTargets`: the read also fetches the targets' entity rows in the same statement (the
    /// read transaction keeps them for the fetch of the targets); `nil` for a to-one side whose
    /// links are in its own rows, where they cannot come together.
    @inlinable
    static func links<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, withTargets: Bool
    ) -> LinkReads<S.ID, T.ID>.Load? {
        let sourceType = EntitySchema.storageName(of: S.self), name = d.name, targetType = EntitySchema.storageName(of: T.self)
        // An id a store cannot keep (NUL, too long) has no row: it is not asked for.
        func text(_ id: S.ID) -> String? { try? IDText.encode(id, of: sourceType, relation: name) }
        if d.storedSide == .derived, let inverse = d.inverse {
            let inverseName = inverse.nameString
            return { base, sources in
                base.read { reader in
                    let keys = sources.compactMap { id in text(id).map { LinkTargetKey(type: targetType, relation: inverseName, target: $0) } }
                    let records = try asking(sourceType, name) {
                        withTargets ? try reader.fetchSourcesAndRows(of: keys).links : try reader.fetchSources(of: keys)
                    }
                    var one: [S.ID: T.ID] = [:]
                    var lists = ListBuilder<S.ID, T.ID>()
                    for record in records {
                        let source = try IDText.decode(record.target, as: S.ID.self), target = try IDText.decode(record.source, as: T.ID.self)
                        guard d.key.toMany else {
                            one[source] = target
                            continue
                        }
                        guard let position = record.inversePosition.flatMap(PositionKey.init) else {
                            throw positionless(sourceType, name, id: record.target, link: "from \"\(record.source)\"")
                        }
                        lists.add(target, at: position, to: source)
                    }
                    return (one, lists.lists)
                }
            }
        }
        if !d.key.toMany {
            if withTargets { return nil }
            return { base, sources in
                base.read { reader in
                    var one: [S.ID: T.ID] = [:]
                    for record in try reader.fetchEntities(sources.compactMap { id in text(id).map { EntityKey(type: sourceType, id: $0) } }) {
                        guard let link = record.toOne.first(where: { $0.relation == name }) else { continue }
                        one[try IDText.decode(record.id, as: S.ID.self)] = try IDText.decode(link.target, as: T.ID.self)
                    }
                    return (one, [:])
                }
            }
        }
        return { base, sources in
            base.read { reader in
                var lists = ListBuilder<S.ID, T.ID>()
                let keys = sources.compactMap { id in text(id).map { LinkSourceKey(type: sourceType, relation: name, source: $0) } }
                let records = withTargets ? try reader.fetchLinksAndRows(of: keys, targetType: targetType).links : try reader.fetchLinks(of: keys)
                for record in records {
                    guard let position = record.position.flatMap(PositionKey.init) else {
                        throw positionless(sourceType, name, id: record.source, link: "to \"\(record.target)\"")
                    }
                    lists.add(try IDText.decode(record.target, as: T.ID.self), at: position, to: try IDText.decode(record.source, as: S.ID.self))
                }
                return ([:], lists.lists)
            }
        }
    }

    /// A page of one source's list through `d`, a to-many side, read by index: from the link
    /// rows the side stores, or, for the side whose pairs the other side stores, from the other
    /// side's links to the source (in their order in its list); `nil` for a to-one side.
    @inlinable
    static func linkPage<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> LinkReads<S.ID, T.ID>.Page? {
        guard d.key.toMany else { return nil }
        let sourceType = EntitySchema.storageName(of: S.self), name = d.name
        if d.storedSide == .derived, let inverse = d.inverse {
            let targetType = EntitySchema.storageName(of: T.self), inverseName = inverse.nameString
            return { base, source, page in
                guard let id = try? IDText.encode(source, of: sourceType, relation: name) else { return [] }
                return base.read { reader in
                    try asking(sourceType, name) { try reader.fetchSources(of: LinkTargetKey(type: targetType, relation: inverseName, target: id), page: page) }.map { record in
                        guard let key = record.inversePosition.flatMap(PositionKey.init) else { throw positionless(sourceType, name, id: id, link: "from \"\(record.source)\"") }
                        return (try IDText.decode(record.source, as: T.ID.self), key)
                    }
                }
            }
        }
        return { base, source, page in
            guard let id = try? IDText.encode(source, of: sourceType, relation: name) else { return [] }
            return base.read { reader in
                try reader.fetchLinks(of: LinkSourceKey(type: sourceType, relation: name, source: id), page: page).map { record in
                    guard let key = record.position.flatMap(PositionKey.init) else { throw positionless(sourceType, name, id: id, link: "to \"\(record.target)\"") }
                    return (try IDText.decode(record.target, as: T.ID.self), key)
                }
            }
        }
    }

    /// How many targets sources have through `d`, a to-many side, counted on storage's index:
    /// the side's own link rows, or the other side's links to them; `nil` for a to-one side.
    @inlinable
    static func linkCount<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> LinkReads<S.ID, T.ID>.Count? {
        guard d.key.toMany else { return nil }
        let sourceType = EntitySchema.storageName(of: S.self), name = d.name
        func keyed(_ sources: [S.ID]) -> [(S.ID, String)] {
            sources.compactMap { id in (try? IDText.encode(id, of: sourceType, relation: name)).map { (id, $0) } }
        }
        if d.storedSide == .derived, let inverse = d.inverse {
            let targetType = EntitySchema.storageName(of: T.self), inverseName = inverse.nameString
            return { base, sources in
                base.read { reader in
                    let keys = keyed(sources).map { (LinkTargetKey(type: targetType, relation: inverseName, target: $0.1), $0.0) }
                    let counts = try asking(sourceType, name) { try reader.fetchSourceCounts(of: keys.map { $0.0 }) }
                    return Dictionary(keys.compactMap { key, id in counts[key].map { (id, $0) } }, uniquingKeysWith: +)
                }
            }
        }
        return { base, sources in
            base.read { reader in
                let keys = keyed(sources).map { (LinkSourceKey(type: sourceType, relation: name, source: $0.1), $0.0) }
                let counts = try reader.fetchLinkCounts(of: keys.map { $0.0 })
                return Dictionary(keys.compactMap { key, id in counts[key].map { (id, $0) } }, uniquingKeysWith: +)
            }
        }
    }

    /// The last key of each of a batch of sources' lists through `d`, a to-many side, read in
    /// one batch (what appending after them needs), and the reads that makes (told to the
    /// transaction ahead, see ``StorageReader/prefetch(_:)``); `nil` for a to-one side.
    @inlinable
    static func linkTails<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> (read: LinkReads<S.ID, T.ID>.Tails, planned: ([S.ID]) -> PlannedReads)? {
        guard d.key.toMany else { return nil }
        let sourceType = EntitySchema.storageName(of: S.self), name = d.name
        func keyed(_ sources: [S.ID]) -> [String] {
            sources.compactMap { id in try? IDText.encode(id, of: sourceType, relation: name) }
        }
        if d.storedSide == .derived, let inverse = d.inverse {
            let targetType = EntitySchema.storageName(of: T.self), inverseName = inverse.nameString
            let planned = { (sources: [S.ID]) in
                PlannedReads(lastSources: keyed(sources).map { LinkTargetKey(type: targetType, relation: inverseName, target: $0) })
            }
            let read: LinkReads<S.ID, T.ID>.Tails = { base, sources in
                base.read { reader in
                    let records = try asking(sourceType, name) { try reader.fetchLastSources(of: planned(sources).lastSources) }
                    var tails: [S.ID: PositionKey] = [:]
                    for record in records {
                        guard let key = record.inversePosition.flatMap(PositionKey.init) else {
                            throw positionless(sourceType, name, id: record.target, link: "from \"\(record.source)\"")
                        }
                        tails[try IDText.decode(record.target, as: S.ID.self)] = key
                    }
                    return tails
                }
            }
            return (read, planned)
        }
        let planned = { (sources: [S.ID]) in
            PlannedReads(lastLinks: keyed(sources).map { LinkSourceKey(type: sourceType, relation: name, source: $0) })
        }
        let read: LinkReads<S.ID, T.ID>.Tails = { base, sources in
            base.read { reader in
                var tails: [S.ID: PositionKey] = [:]
                for record in try reader.fetchLastLinks(of: planned(sources).lastLinks) {
                    guard let key = record.position.flatMap(PositionKey.init) else {
                        throw positionless(sourceType, name, id: record.source, link: "to \"\(record.target)\"")
                    }
                    tails[try IDText.decode(record.source, as: S.ID.self)] = key
                }
                return tails
            }
        }
        return (read, planned)
    }

    /// The error for a stored list link without a valid position: of `type`'s `relation` of
    /// `id`, the link `from "x"` or `to "x"`.
    @usableFromInline
    static func positionless(_ type: String, _ relation: String, id: String, link: String) -> RelataError {
        RelataError(code: .undecodableRecord, entityType: type, id: id, relation: relation, message: "the stored link \(link) has no valid position")
    }

    /// Runs `read`, a read of the other side's links to sources of `type`'s `relation`, so that
    /// a stale snapshot names the relation asked about (`Chat.messages` of chat "c0") rather
    /// than the side that stores it (`Message.chat` to "c0").
    @usableFromInline
    static func asking<R>(_ type: String, _ relation: String, _ read: () throws -> R) throws -> R {
        do {
            return try read()
        } catch let error as RelataError where error.code == .staleSnapshot {
            throw RelataError(code: error.code, entityType: type, id: error.id, relation: relation, message: error.message, underlying: error.underlying)
        }
    }

    /// Puts the to-one links of entity rows read (those of `d`, stored in `S`'s rows) in the
    /// link table, for the sources it does not hold: the ids asked about (`nil`: every row's
    /// source) have no link unless a row says so.
    @inlinable
    static func rowLinks<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> (EntityTable<S>, [S.ID]?, [EntityRecord]) -> Void {
        let name = d.name
        return { table, asked, rows in
            let links = table.linkTable(d.key, T.ID.self)
            // At most two hash operations per row: the loaded mark, and the link when there is one.
            // A source not loaded has no link in the table (every write loads its source first).
            links.loaded.reserveCapacity(links.loaded.count + rows.count)
            for index in rows.indices {
                guard let source = try? IDText.decode(rows[index].id, as: S.ID.self), links.loaded.insert(source).inserted,
                    let link = rows[index].toOne.firstIndex(where: { $0.relation == name }),
                    let target = try? IDText.decode(rows[index].toOne[link].target, as: T.ID.self)
                else { continue }
                if links.write?.readStored != true {
                    links.writing.readStored = true
                    links.one.reserveCapacity(links.one.count + rows.count - index)
                }
                links.one[source] = links.unclaimed(target, of: source)
            }
            // An id asked about without a row has no link.
            for source in asked ?? [] { links.loaded.insert(source) }
        }
    }

    /// The sources of a one-way relation's links to targets.
    @inlinable
    static func backlinks<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>
    ) -> BacklinkFaulter<S.ID, T.ID>.Load {
        let sourceType = EntitySchema.storageName(of: S.self), name = d.name
        return { base, targets in
            base.read { reader in
                let keys = targets.compactMap { id in
                    (try? IDText.encode(id, of: sourceType, relation: name)).map { LinkTargetKey(type: sourceType, relation: name, target: $0) }
                }
                var sources: [T.ID: Set<S.ID>] = [:]
                for record in try reader.fetchSources(of: keys) {
                    sources[try IDText.decode(record.target, as: T.ID.self), default: []].insert(try IDText.decode(record.source, as: S.ID.self))
                }
                return sources
            }
        }
    }
}

/// Ordered lists built from links read in any order: sorted by position, ties by id, as a whole
/// load sorts them (``OrderedLinks/init(unsortedTargets:keys:)``).
@usableFromInline
struct ListBuilder<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable> {
    @usableFromInline var gathered: [SourceID: (targets: [TargetID], keys: [PositionKey])] = [:]

    @inlinable
    init() {}

    @inlinable
    mutating func add(_ target: TargetID, at key: PositionKey, to source: SourceID) {
        // One hash operation: the list is found (or made) once and appended to in place.
        Self.append(target, key, to: &gathered[source, default: ([], [])])
    }

    @inlinable
    static func append(_ target: TargetID, _ key: PositionKey, to list: inout (targets: [TargetID], keys: [PositionKey])) {
        list.targets.append(target)
        list.keys.append(key)
    }

    @inlinable
    var lists: [SourceID: OrderedLinks<TargetID>] {
        gathered.mapValues { OrderedLinks(unsortedTargets: $0.targets, keys: $0.keys) }
    }
}
