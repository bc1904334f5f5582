/// A dynamic relationship created or removed (see ``Context/relate(_:_:_:)``).
struct DynamicLinkChange: ChangeOperation {
    enum Kind: String, Sendable {
        case relate, unrelate
    }

    let stamp: ChangeStamp
    let kind: Kind
    let link: DynamicLink

    var entityTypeName: String { link.source.typeName }

    /// Relating replays only while both ends are stored (an end erased by an earlier change
    /// stays erased, with no link to it).
    func replay(into context: inout Context) {
        let present = context.storage.dynamic?.contains(link) ?? false
        switch kind {
        case .relate:
            guard !present, link.source.exists(in: context), link.target.exists(in: context) else { return }
            context.mutableDynamicLinks().insert(link)
        case .unrelate:
            guard present else { return }
            context.mutableDynamicLinks().remove(link)
        }
    }

    func encode(to container: inout KeyedEncodingContainer<ChangeCodingKey>) throws {
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(link.kind.rawValue, forKey: .relation)
        try link.source.encodeID(to: &container, forKey: .source)
        try container.encode(link.target.typeName, forKey: .targetEntity)
        try link.target.encodeID(to: &container, forKey: .target)
    }

    /// Decodes a change encoded by ``encode(to:)`` whose source is of type `Source`.
    static func decode<Source: EntityModelProtocol>(
        _: Source.Type, stamp: ChangeStamp, kind: Kind, from container: KeyedDecodingContainer<ChangeCodingKey>,
        schema: EntitySchema
    ) throws -> DynamicLinkChange {
        let relation = try container.decode(String.self, forKey: .relation)
        guard let linkKind = DynamicLink.Kind(rawValue: relation) else {
            throw DecodingError.dataCorruptedError(
                forKey: .relation, in: container, debugDescription: "unknown dynamic relationship \(relation)"
            )
        }
        let source = EntityReference(Source.self, id: try container.decode(Source.ID.self, forKey: .source))
        let targetName = try container.decode(String.self, forKey: .targetEntity)
        guard let targetType = schema.type(named: targetName) else {
            throw RelataError(
                code: .unknownEntityType, entityType: targetName, relation: relation,
                message: "the schema has no entity type \(targetName)"
            )
        }
        let target = try EntityReference.decode(targetType, from: container, forKey: .target)
        return DynamicLinkChange(stamp: stamp, kind: kind, link: DynamicLink(linkKind, source, target))
    }
}

extension EntityReference {
    /// Encodes the id with its own type's `Codable` conformance.
    func encodeID<Key: CodingKey>(to container: inout KeyedEncodingContainer<Key>, forKey key: Key) throws {
        func encode<Entity: EntityModelProtocol>(_: Entity.Type) throws {
            try container.encode(id(as: Entity.self)!, forKey: key)
        }
        try encode(entityType)
    }

    /// Decodes a reference to an entity of `type` whose id is under `key`.
    static func decode<Entity: EntityModelProtocol, Key: CodingKey>(
        _ type: Entity.Type, from container: KeyedDecodingContainer<Key>, forKey key: Key
    ) throws -> EntityReference {
        EntityReference(type, id: try container.decode(Entity.ID.self, forKey: key))
    }

    /// The id as text (see `IDText`).
    func idText() throws -> String {
        func encode<Entity: EntityModelProtocol>(_: Entity.Type) throws -> String {
            try IDText.encode(id(as: Entity.self)!, of: EntitySchema.storageName(of: Entity.self), relation: "dynamic relationship")
        }
        return try encode(entityType)
    }

    /// A reference to the entity of `type` whose id is `text` (see `IDText`).
    static func fromIDText<Entity: EntityModelProtocol>(_ type: Entity.Type, _ text: String) throws -> EntityReference {
        EntityReference(type, id: try IDText.decode(text, as: Entity.ID.self))
    }
}
