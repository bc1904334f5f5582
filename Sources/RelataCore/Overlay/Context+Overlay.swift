import Foundation

extension Context {
    /// A context over storage: it holds nothing at first and reads what it is asked about from
    /// `base` — an entity by id, the links of a source, the sources of a target, every entity of
    /// a type — keeping what it read, so memory follows what was touched, not the store's size.
    ///
    /// Reads and writes answer as on a context loaded whole from the same rows (the overlay
    /// property tests check it).
    package init(over base: ContextBase) {
        self.init()
        installOverlay(base)
    }

    /// Points this context at `base`: every type's tables get their readers (see
    /// `OverlayPlan.install(in:over:)`), new ones or the ones it holds.
    mutating func installOverlay(_ base: ContextBase) {
        storage.base = base
        storage.types.reserveCapacity(base.schema.types.count)
        storage.tables.reserveCapacity(base.schema.types.count)
        for type in base.schema.types.values { type._relataStoreDescriptor.installOverlay(&self, base) }
    }

    /// A context over `backend`'s rows, typed through `schema` (see ``init(over:)``).
    ///
    /// SPI (`@_spi(Paged)`), for benchmarks: not API yet. Each read is its own read transaction
    /// (a resolve is one), what it keeps is not bounded, and its writes are not persisted — a
    /// `Store`'s contexts bring those. Like every context, it may be read from several threads.
    @_spi(Paged)
    public init(over backend: any StorageBackend, schema: EntitySchema) {
        self.init(over: ContextBase(backend: backend, schema: schema))
    }

    /// The first read of this context that storage could not answer, in a context a ``Store``
    /// handed out: a ``RelataError`` naming the type, id and relation — a stored row that does not
    /// decode (``RelataError/Code/undecodableRecord``), storage that cannot be read
    /// (``RelataError/Code/storageFailed``), or a row another commit changed after this context's
    /// snapshot (``RelataError/Code/staleSnapshot``). That read answered as if the row were absent.
    ///
    /// `nil` in a context that reads nothing from storage (a plain `Context()`), and while every
    /// read succeeded. ``Store/read(_:)-7uh7i`` throws it; a write whose closure read it fails with it.
    public var storageFailure: (any Error)? { storage.base?.failure }

    /// Reads those of the entities `ids` of `type` not held yet, in one batch.
    private func ensureEntities(_ type: any EntityModelProtocol.Type, _ ids: [any Hashable & Sendable]) {
        func ensure<Entity: EntityModelProtocol>(_: Entity.Type) {
            table(Entity.self)?.ensure(ids.compactMap { $0 as? Entity.ID })
        }
        ensure(type)
    }

    /// Reads everything a context over storage does not hold yet — every entity, link and dynamic
    /// relationship — so that it can be compared in full (a write's closure that assigned a whole
    /// context) with `other`, whose link sources it reads too (those with no entity). O(store);
    /// nothing in a context that holds everything.
    func holdEverything(alongside other: Context? = nil) {
        guard storage.base != nil else { return }
        exclusively {
            for (index, table) in storage.tables.enumerated() {
                let same = other.flatMap { other in other.storage.index(of: storage.types[index]).map { other.storage.tables[$0] } }
                table.holdEverything(in: self, alongside: same)
            }
        }
    }

    /// Makes sure the dynamic relationships of `subject` are held: read from the base the first
    /// time, in a context over storage; nothing otherwise.
    @usableFromInline
    func ensureDynamicLinks(of subject: EntityReference) {
        guard readsDynamicLinks else { return }
        readDynamicLinks(of: subject)
    }

    /// `ensureDynamicLinks(of:)` for the entities `ids` of `Entity`, their
    /// references made only when storage may hold some.
    @inlinable
    func ensureDynamicLinks<Entity: EntityModelProtocol>(of _: Entity.Type, ids: [Entity.ID]) {
        guard readsDynamicLinks else { return }
        readDynamicLinks(of: ids.map { EntityReference(Entity.self, id: $0) })
    }

    /// Whether storage may hold dynamic relationships this context would have to read: over
    /// storage, unless storage held none as of the context's snapshot (then what the context
    /// holds is every one there is, and an erasure reads none).
    @usableFromInline
    var readsDynamicLinks: Bool { storage.base?.mayHoldDynamicLinks() ?? false }

    /// Makes sure the dynamic relationships of each of `subjects` are held, reading those not held
    /// in one batch (their other ends in one batch per type).
    @usableFromInline
    func ensureDynamicLinks(of subjects: [EntityReference]) {
        guard readsDynamicLinks else { return }
        readDynamicLinks(of: subjects)
    }

    /// Reads the dynamic relationships of `subject` if this context has not: for a caller that
    /// asked ``readsDynamicLinks`` already.
    @usableFromInline
    func readDynamicLinks(of subject: EntityReference) {
        guard !storage.dynamicLoaded.contains(subject) else { return }
        readDynamicLinks(of: [subject])
    }

    /// Reads the dynamic relationships of those of `subjects` this context has not read, in one
    /// batch: for a caller that asked ``readsDynamicLinks`` already.
    @usableFromInline
    func readDynamicLinks(of subjects: [EntityReference]) {
        guard let base = storage.base else { return }
        let missing = Array(Set(subjects.filter { !storage.dynamicLoaded.contains($0) }))
        guard !missing.isEmpty else { return }
        let keys = missing.map { EntityKey(type: EntitySchema.storageName(of: $0.entityType), id: (try? $0.idText()) ?? "") }
        guard let records = base.read({ try $0.fetchDynamicLinks(of: keys) }) else { return }
        let links = storage.dynamic ?? DynamicLinks()
        // Made during a write: it marks what the write changes from the start.
        if storage.dynamic == nil, storage.isTracking { links.dirty = [] }
        storage.dynamic = links
        var ends: [ObjectIdentifier: (any EntityModelProtocol.Type, [any Hashable & Sendable])] = [:]
        for record in records {
            for (name, id) in [(record.sourceType, record.source), (record.targetType, record.target)] {
                guard let type = base.schema.type(named: name), let ref = try? EntityReference.fromIDText(type, id) else { continue }
                ends[ObjectIdentifier(type), default: (type, [])].1.append(ref.id)
            }
        }
        for (type, ids) in ends.values { ensureEntities(type, ids) }
        for record in records {
            guard let kind = DynamicLink.Kind(rawValue: record.kind),
                let sourceType = base.schema.type(named: record.sourceType), let targetType = base.schema.type(named: record.targetType),
                let source = try? EntityReference.fromIDText(sourceType, record.source),
                let target = try? EntityReference.fromIDText(targetType, record.target),
                // As a whole load does: a relationship to an entity that is gone is not kept.
                source.exists(in: self), target.exists(in: self)
            else { continue }
            links.insert(DynamicLink(kind, source, target))
        }
        storage.dynamicLoaded.formUnion(missing)
    }
}
