import Foundation

/// Builds a context from stored rows, typed through an ``EntitySchema``.
///
/// Rows of a type the schema does not have, or of a relation the type no longer declares, are
/// skipped and counted in ``ignored`` (they stay in storage untouched), so removing or renaming a
/// type or relation never blocks opening a store.
struct ContextLoader {
    private(set) var context = Context()
    let schema: EntitySchema
    /// Rows skipped, by `Type` or `Type.relation`.
    private(set) var ignored: [String: Int] = [:]
    private var entityLoaders: [String: (any RecordLoader)?] = [:]
    private var linkLoaders: [String: [String: (any RecordLoader)?]] = [:]

    init(schema: EntitySchema) {
        self.schema = schema
    }

    /// Entity rows waiting to be decoded together (on every core), by type.
    private var pendingEntities: [String: [EntityRecord]] = [:]

    mutating func load(_ record: EntityRecord) throws {
        pendingEntities[record.type, default: []].append(record)
    }

    /// Decodes and stores the pending entities.
    private mutating func flushEntities() throws {
        guard !pendingEntities.isEmpty else { return }
        for (type, records) in pendingEntities.sorted(by: { $0.key < $1.key }) {
            let loader: (any RecordLoader)?
            if let cached = entityLoaders[type] {
                loader = cached
            } else {
                loader = schema.type(named: type).map { Self.entityLoader(for: $0) }
                entityLoaders[type] = loader
            }
            guard let loader else {
                ignored[type, default: 0] += records.count
                continue
            }
            try loader.loadEntities(records, into: &context)
        }
        pendingEntities = [:]
    }

    /// Links of one source through one relation, gathered to be placed together.
    private var group: [LinkRecord] = []

    mutating func load(_ record: LinkRecord) throws {
        try flushEntities()
        if let first = group.first,
            first.source != record.source || first.relation != record.relation || first.type != record.type
        {
            try flush()
        }
        group.append(record)
    }

    /// Places the gathered group; call once after the last link.
    mutating func flush() throws {
        try flushEntities()
        guard let first = group.first else { return }
        defer { group.removeAll(keepingCapacity: true) }
        let loader: (any RecordLoader)?
        if let cached = linkLoaders[first.type]?[first.relation] {
            loader = cached
        } else {
            loader = schema.type(named: first.type).flatMap { Self.linkLoader(for: $0, relation: first.relation) }
            linkLoaders[first.type, default: [:]][first.relation] = loader
        }
        guard let loader else {
            ignored["\(first.type).\(first.relation)", default: 0] += group.count
            return
        }
        try loader.loadLinks(group, into: &context)
    }

    /// Loads a dynamic relationship. One whose kind or end types are unknown, or whose ends are
    /// not stored, is skipped and counted under `"dynamic links"`.
    mutating func load(_ record: DynamicLinkRecord) throws {
        try flush()
        guard let kind = DynamicLink.Kind(rawValue: record.kind),
            let sourceType = schema.type(named: record.sourceType),
            let targetType = schema.type(named: record.targetType)
        else {
            ignored["dynamic links", default: 0] += 1
            return
        }
        let source: EntityReference
        let target: EntityReference
        do {
            source = try EntityReference.fromIDText(sourceType, record.source)
            target = try EntityReference.fromIDText(targetType, record.target)
        } catch {
            throw RelataError(
                code: .undecodableRecord, entityType: record.sourceType, id: record.source, relation: record.kind,
                message: "the stored dynamic relationship to \(record.targetType) \"\(record.target)\" has an id that does not decode",
                underlying: error
            )
        }
        guard source.exists(in: context), target.exists(in: context) else {
            ignored["dynamic links", default: 0] += 1
            return
        }
        context.mutableDynamicLinks().insert(DynamicLink(kind, source, target))
    }

    private static func entityLoader<Entity: EntityModelProtocol>(for _: Entity.Type) -> any RecordLoader {
        EntityLoader<Entity>()
    }

    private static func linkLoader<Entity: EntityModelProtocol>(for _: Entity.Type, relation: String) -> (any RecordLoader)? {
        var finder = LinkLoaderFinder<Entity>(relation: relation)
        try? Entity._relataVisitRelations(&finder)
        return finder.loader
    }
}

protocol RecordLoader {
    /// Decodes (on every core) and stores entities of one type.
    func loadEntities(_ records: [EntityRecord], into context: inout Context) throws
    /// Loads links that share their type, relation and source.
    func loadLinks(_ records: [LinkRecord], into context: inout Context) throws
}

extension RecordLoader {
    func loadEntities(_ records: [EntityRecord], into context: inout Context) throws {}
    func loadLinks(_ records: [LinkRecord], into context: inout Context) throws {}
}

private struct EntityLoader<Entity: EntityModelProtocol>: RecordLoader {
    func loadEntities(_ records: [EntityRecord], into context: inout Context) throws {
        let entities = try ParallelCoding.map(records, worker: { JSONDecoder() }) { decoder, record in
            do {
                return try decoder.decode(Entity.self, from: record.payload)
            } catch {
                throw RelataError(
                    code: .undecodableRecord, entityType: record.type, id: record.id,
                    message: "the stored \(record.type) \"\(record.id)\" cannot be decoded with the current model",
                    underlying: error
                )
            }
        }
        let table = context.mutableTable(Entity.self)
        table.entities.reserveCapacity(table.entities.count + entities.count)
        for entity in entities { table.entities[entity.id] = entity }
    }
}

private struct LinkLoader<Source: EntityModelProtocol, Target: EntityModelProtocol>: RecordLoader {
    let descriptor: RelationDescriptor<Source, Target>

    func loadLinks(_ records: [LinkRecord], into context: inout Context) throws {
        func failure(_ record: LinkRecord, _ message: String) -> RelataError {
            RelataError(
                code: .undecodableRecord, entityType: record.type, id: record.source, relation: record.relation,
                message: "the stored link to \"\(record.target)\" \(message)"
            )
        }
        guard let first = records.first else { return }
        guard let source = try? IDText.decode(first.source, as: Source.ID.self) else {
            throw failure(first, "has a source id that does not decode")
        }
        var targets: [(Target.ID, PositionKey?)] = []
        targets.reserveCapacity(records.count)
        for record in records {
            guard let target = try? IDText.decode(record.target, as: Target.ID.self) else {
                throw failure(record, "has an id that does not decode")
            }
            var key: PositionKey?
            if descriptor.key.toMany {
                guard let text = record.position, let position = PositionKey(text) else {
                    throw failure(record, "has no valid position")
                }
                key = position
            }
            targets.append((target, key))
        }
        let table = context.mutableTable(Source.self).linkTable(descriptor.key, Target.ID.self)
        if descriptor.key.toMany {
            if table.many[source] == nil, Set(targets.lazy.map(\.0)).count == targets.count {
                targets.sort { a, b in a.1! < b.1! || (a.1! == b.1! && IDOrder.precedes(a.0, b.0)) }
                table.many[source] = OrderedLinks(sortedTargets: targets.map(\.0), keys: targets.map { $0.1! })
            } else {
                for (target, key) in targets { table.place(target, in: source, at: key!) }
            }
        } else if let (target, _) = targets.last {
            table.setOne(target, for: source)
        }
        if descriptor.inverse == nil {
            let backlinks = context.backlinks(descriptor)
            for (target, _) in targets { backlinks.insert(source, for: target) }
        }
    }
}

private struct LinkLoaderFinder<Entity: EntityModelProtocol>: _RelationVisitor {
    let relation: String
    var loader: (any RecordLoader)?

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard loader == nil, descriptor.name == relation else { return }
        loader = LinkLoader(descriptor: descriptor)
    }
}
