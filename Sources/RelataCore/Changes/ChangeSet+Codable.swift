extension ChangeSet: Codable {
    /// Encodes the changes in order, each as an object with its stamp, kind, entity type and
    /// fields (ids, relation name, position keys, the entity value of an upsert).
    public func encode(to encoder: any Encoder) throws {
        var list = encoder.unkeyedContainer()
        for operation in operations {
            var container = list.nestedContainer(keyedBy: ChangeCodingKey.self)
            try container.encode(operation.stamp, forKey: .stamp)
            try container.encode(operation.entityTypeName, forKey: .entity)
            try operation.encode(to: &container)
        }
    }

    /// Decodes changes encoded by ``encode(to:)``.
    ///
    /// - Throws: `DecodingError` when the decoder has no ``EntitySchema`` under
    ///   `CodingUserInfoKey.relataSchema` or the data is malformed; ``RelataError``
    ///   with code ``RelataError/Code/unknownEntityType`` naming a type or relation the schema
    ///   does not know.
    public init(from decoder: any Decoder) throws {
        guard let schema = decoder.userInfo[.relataSchema] as? EntitySchema else {
            throw DecodingError.dataCorrupted(
                .init(codingPath: decoder.codingPath, debugDescription: "decoding a ChangeSet needs userInfo[.relataSchema]")
            )
        }
        var list = try decoder.unkeyedContainer()
        var operations: [any ChangeOperation] = []
        while !list.isAtEnd {
            let container = try list.nestedContainer(keyedBy: ChangeCodingKey.self)
            let name = try container.decode(String.self, forKey: .entity)
            guard let type = schema.type(named: name) else {
                throw RelataError(code: .unknownEntityType, entityType: name, message: "the schema has no entity type \(name)")
            }
            let kind = try container.decode(String.self, forKey: .kind)
            if let dynamicKind = DynamicLinkChange.Kind(rawValue: kind) {
                let stamp = try container.decode(ChangeStamp.self, forKey: .stamp)
                operations.append(
                    try DynamicLinkChange.decode(type, stamp: stamp, kind: dynamicKind, from: container, schema: schema)
                )
            } else {
                operations.append(try Self.decodeOperation(type, from: container))
            }
        }
        self.init(operations: operations)
    }

    private static func decodeOperation<Entity: EntityModelProtocol>(
        _: Entity.Type, from container: KeyedDecodingContainer<ChangeCodingKey>
    ) throws -> any ChangeOperation {
        let stamp = try container.decode(ChangeStamp.self, forKey: .stamp)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "upsert":
            let name = try container.decode(String.self, forKey: .strategy)
            guard let strategy = MergeStrategy<Entity>.ReplayName(rawValue: name) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .strategy, in: container, debugDescription: "unknown merge strategy \(name)"
                )
            }
            let value = try container.decode(Entity.self, forKey: .value)
            return EntityUpsert(stamp: stamp, value: value, strategy: strategy)
        case "erase":
            return EntityErasure<Entity>(stamp: stamp, id: try container.decode(Entity.ID.self, forKey: .id))
        default:
            let relation = try container.decode(String.self, forKey: .relation)
            var decoder = LinkChangeDecoder<Entity>(relation: relation, kind: kind, stamp: stamp, container: container)
            try Entity._relataVisitRelations(&decoder)
            guard let operation = decoder.operation else {
                throw RelataError(
                    code: .unknownEntityType, entityType: String(describing: Entity.self), relation: relation,
                    message: "\(Entity.self) has no relation \(relation)"
                )
            }
            return operation
        }
    }
}

/// Decodes one link change once the relation named in it is found among the source's relations.
private struct LinkChangeDecoder<Entity: EntityModelProtocol>: _RelationVisitor {
    let relation: String
    let kind: String
    let stamp: ChangeStamp
    let container: KeyedDecodingContainer<ChangeCodingKey>
    var operation: (any ChangeOperation)?

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard operation == nil, descriptor.name == relation else { return }
        guard let kind = LinkChange<S, T>.Kind(rawValue: kind) else {
            throw DecodingError.dataCorruptedError(forKey: .kind, in: container, debugDescription: "unknown change \(kind)")
        }
        operation = LinkChange(
            stamp: stamp, kind: kind, descriptor: descriptor,
            source: try container.decode(S.ID.self, forKey: .source),
            target: try container.decode(T.ID.self, forKey: .target),
            key: try container.decodeIfPresent(PositionKey.self, forKey: .key),
            inverseKey: try container.decodeIfPresent(PositionKey.self, forKey: .inverseKey)
        )
    }
}
