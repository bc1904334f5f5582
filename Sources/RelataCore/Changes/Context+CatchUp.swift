// A store hands its observers the commits made elsewhere (another Store, another process) as a
// `StoreDelta`, made from the rows those commits touched: the rows are loaded into a small context
// of their own, every place they can change is marked in a context (as a write's tracker marks
// what its closure changes), and the delta is read from the marks with the loaded rows as the
// values. It is what `StoreDelta.apply(to:)` needs to bring a copy of the state before the
// commits up to date.

extension Context {
    /// The delta that brings a copy of the state before `changes` (the current rows of every key
    /// some commits touched) up to date. This context is left as it was.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/undecodableRecord`` when a row or
    ///   an id does not decode.
    /// - Complexity: O(rows + links of the touched sources).
    func catchUpDelta(_ changes: CommittedChanges, schema: EntitySchema) throws -> StoreDelta {
        // The rows as they are now, loaded on their own.
        var loader = ContextLoader(schema: schema)
        for record in changes.entities { try loader.load(record) }
        let links = changes.links.sorted { ($0.type, $0.relation, $0.source) < ($1.type, $1.relation, $1.source) }
        for record in links { try loader.load(record) }
        try loader.flush()
        var rows = loader.context
        var marked = self
        let tracker = ChangeTracker()
        marked.beginTracking(tracker)
        defer { tracker.end() }
        // Every place a touched row decides, marked in the replica.
        var ids: [String: [String]] = [:]
        for key in changes.touched.entities { ids[key.type, default: []].append(key.id) }
        var sources: [String: [String: [String]]] = [:]
        for key in changes.touched.linkSources { sources[key.type, default: [:]][key.relation, default: []].append(key.source) }
        for name in Set(ids.keys).union(sources.keys) {
            guard let type = schema.type(named: name) else { continue }
            try marked.markTouched(type, ids: ids[name] ?? [], sources: sources[name] ?? [:], values: rows)
        }
        if !changes.touched.dynamicLinks.isEmpty {
            let stored = Set(changes.dynamicLinks)
            let dirty = marked.mutableDynamicLinks()
            if dirty.dirty == nil { dirty.dirty = [] }
            let present = rows.mutableDynamicLinks()
            for record in Set(changes.touched.dynamicLinks) {
                guard let link = try DynamicLink(record, schema: schema) else { continue }
                dirty.dirty!.insert(link)
                if stored.contains(record) { present.insert(link) }
            }
        }
        return marked.trackedDelta(valuesFrom: rows, onEveryCore: true)
    }

    /// Marks the entities `ids` of `Entity` and every link a row of theirs (or a link row of
    /// `sources`, by relation name) decides: their links in this context and in `values`, on
    /// both sides of mutual relations.
    private mutating func markTouched<Entity: EntityModelProtocol>(
        _: Entity.Type, ids: [String], sources: [String: [String]], values: Context
    ) throws {
        func decode(_ text: String, relation: String? = nil) throws -> Entity.ID {
            do {
                return try IDText.decode(text, as: Entity.ID.self)
            } catch {
                throw RelataError(
                    code: .undecodableRecord, entityType: Entity.storedTypeName, id: text, relation: relation,
                    message: "a committed row has an id that does not decode as \(Entity.ID.self)", underlying: error
                )
            }
        }
        let entityIDs = try ids.map { try decode($0) }
        let table = mutableTable(Entity.self)
        for id in entityIDs { table.touch(id) }
        var marker = TouchedLinkMarker<Entity>(entityIDs: entityIDs, values: values)
        for (relation, texts) in sources { marker.sources[relation] = try texts.map { try decode($0, relation: relation) } }
        swap(&marker.context, &self)
        defer { swap(&marker.context, &self) }
        try Entity._relataVisitRelations(&marker)
    }
}

/// Marks, relation by relation, the links of touched sources (see
/// ``Context/catchUpDelta(_:schema:)``).
private struct TouchedLinkMarker<Entity: EntityModelProtocol>: _RelationVisitor {
    /// The replica being marked (swapped in for the visit).
    var context = Context()
    let entityIDs: [Entity.ID]
    let values: Context
    /// Sources whose link rows were touched, by relation name.
    var sources: [String: [Entity.ID]] = [:]

    init(entityIDs: [Entity.ID], values: Context) {
        self.entityIDs = entityIDs
        self.values = values
    }

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        // To-one links live in their source's entity row (or, in files of older versions, in
        // link rows); to-many links in link rows. A side whose pairs the other side stores
        // (`.derived`) is marked from there, as the inverse: its own rows decide nothing.
        var touched = sources[descriptor.name].map { $0.map { checkedCast($0, to: S.ID.self, in: key.name) } } ?? []
        if !key.toMany, descriptor.storedSide != .derived {
            touched += entityIDs.map { checkedCast($0, to: S.ID.self, in: key.name) }
        }
        guard !touched.isEmpty else { return }
        let links = context.mutableTable(S.self).linkTable(key, T.ID.self)
        let loaded = values.table(S.self)?.existingLinkTable(key, T.ID.self)
        let inverse = descriptor.inverse.map { context.mutableTable(T.self).linkTable($0, S.ID.self) }
        for source in touched {
            var targets: [T.ID] = []
            if key.toMany {
                targets += links.many[source]?.targets ?? []
                targets += loaded?.many[source]?.targets ?? []
            } else {
                if let target = links.one[source] { targets.append(target) }
                if let target = loaded?.one[source] { targets.append(target) }
            }
            for target in targets {
                links.touch(source, target)
                inverse?.touch(target, source)
            }
        }
    }
}

extension DynamicLink {
    /// The link a stored row describes; `nil` when its kind or a type is unknown to `schema`.
    init?(_ record: DynamicLinkRecord, schema: EntitySchema) throws {
        guard let kind = DynamicLink.Kind(rawValue: record.kind),
            let sourceType = schema.type(named: record.sourceType),
            let targetType = schema.type(named: record.targetType)
        else { return nil }
        do {
            self.init(kind, try EntityReference.fromIDText(sourceType, record.source), try EntityReference.fromIDText(targetType, record.target))
        } catch {
            throw RelataError(
                code: .undecodableRecord, entityType: record.sourceType, id: record.source, relation: record.kind,
                message: "the dynamic relationship to \(record.targetType) \"\(record.target)\" has an id that does not decode",
                underlying: error
            )
        }
    }
}
