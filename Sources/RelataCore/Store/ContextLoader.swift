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
    private let decoder = JSONDecoder()

    init(schema: EntitySchema) {
        self.schema = schema
    }

    mutating func load(_ record: EntityRecord) throws {
        let loader: (any RecordLoader)?
        if let cached = entityLoaders[record.type] {
            loader = cached
        } else {
            loader = schema.type(named: record.type).map { Self.entityLoader(for: $0) }
            entityLoaders[record.type] = loader
        }
        guard let loader else {
            ignored[record.type, default: 0] += 1
            return
        }
        try loader.loadEntity(record, into: &context, decoder: decoder)
    }

    mutating func load(_ record: LinkRecord) throws {
        let loader: (any RecordLoader)?
        if let cached = linkLoaders[record.type]?[record.relation] {
            loader = cached
        } else {
            loader = schema.type(named: record.type).flatMap { Self.linkLoader(for: $0, relation: record.relation) }
            linkLoaders[record.type, default: [:]][record.relation] = loader
        }
        guard let loader else {
            ignored["\(record.type).\(record.relation)", default: 0] += 1
            return
        }
        try loader.loadLink(record, into: &context)
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
    func loadEntity(_ record: EntityRecord, into context: inout Context, decoder: JSONDecoder) throws
    func loadLink(_ record: LinkRecord, into context: inout Context) throws
}

extension RecordLoader {
    func loadEntity(_ record: EntityRecord, into context: inout Context, decoder: JSONDecoder) throws {}
    func loadLink(_ record: LinkRecord, into context: inout Context) throws {}
}

private struct EntityLoader<Entity: EntityModelProtocol>: RecordLoader {
    func loadEntity(_ record: EntityRecord, into context: inout Context, decoder: JSONDecoder) throws {
        do {
            let entity = try decoder.decode(Entity.self, from: record.payload)
            context.mutableTable(Entity.self).entities[entity.id] = entity
        } catch {
            throw RelataError(
                code: .undecodableRecord, entityType: record.type, id: record.id,
                message: "the stored \(record.type) \"\(record.id)\" cannot be decoded with the current model",
                underlying: error
            )
        }
    }
}

private struct LinkLoader<Source: EntityModelProtocol, Target: EntityModelProtocol>: RecordLoader {
    let descriptor: RelationDescriptor<Source, Target>

    func loadLink(_ record: LinkRecord, into context: inout Context) throws {
        func failure(_ message: String) -> RelataError {
            RelataError(
                code: .undecodableRecord, entityType: record.type, id: record.source, relation: record.relation,
                message: "the stored link to \"\(record.target)\" \(message)"
            )
        }
        let source: Source.ID, target: Target.ID
        do {
            source = try IDText.decode(record.source, as: Source.ID.self)
            target = try IDText.decode(record.target, as: Target.ID.self)
        } catch {
            throw failure("has an id that does not decode")
        }
        let table = context.mutableTable(Source.self).linkTable(descriptor.key, Target.ID.self)
        if descriptor.key.toMany {
            guard let text = record.position, let key = PositionKey(text) else {
                throw failure("has no valid position")
            }
            table.place(target, in: source, at: key)
        } else {
            table.setOne(target, for: source)
        }
        if descriptor.inverse == nil {
            context.backlinks(descriptor).insert(source, for: target)
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
