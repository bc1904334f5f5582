import Foundation

extension Relation: Codable {
    private enum KeyedShape: String, CodingKey {
        case ids, entities, fragments, null, appending
    }

    static var isToMany: Bool { Cardinality.self == Relations.ToMany.self }

    /// Writes the relation in the encoder's ``RelationEncodingStrategy``.
    public func encode(to encoder: any Encoder) throws {
        if case .none = state {
            // Both shapes write `.none` as null; skip the strategy lookup (stored entities are
            // normalized, so every relation is `.none`).
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        switch encoder.relationEncodingStrategy {
        case .plain: try encodePlain(to: encoder)
        case .keyed: try encodeKeyed(to: encoder)
        case .keyedContainer: try encodeContainer(to: encoder, explicit: false)
        case .explicitKeyedContainer: try encodeContainer(to: encoder, explicit: true)
        }
    }

    private func encodeKeyed(to encoder: any Encoder) throws {
        if case .none = state {
            var container = encoder.singleValueContainer()
            try container.encodeNil()
            return
        }
        var container = encoder.container(keyedBy: KeyedShape.self)
        switch state {
        case .none: break
        case .null: try container.encode(true, forKey: .null)
        case let .id(id):
            try container.encode([id], forKey: .ids)
        case let .ids(ids, appending):
            try container.encode(ids, forKey: .ids)
            if appending { try container.encode(true, forKey: .appending) }
        case let .entities(entities, fragment, appending):
            try container.encode(entities, forKey: fragment ? .fragments : .entities)
            if appending { try container.encode(true, forKey: .appending) }
        }
    }

    private func encodePlain(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch state {
        case .none, .null:
            try container.encodeNil()
        case let .id(id):
            if Self.isToMany { try container.encode([IDObject(id: id)]) } else { try container.encode(IDObject(id: id)) }
        case let .ids(ids, _):
            let objects = ids.map(IDObject.init)
            if Self.isToMany { try container.encode(objects) } else { try container.encode(objects.first) }
        case let .entities(entities, _, _):
            if Self.isToMany { try container.encode(entities) } else { try container.encode(entities.first) }
        }
    }

    /// Reads the relation in the shapes of the decoder's ``RelationDecodingStrategy``; `null` is `.none`.
    ///
    /// One shape is chosen per relation from what the value is, and only that one reads it: an
    /// array is the plain shape; an object whose keys are all keyed-shape keys (`ids`,
    /// `entities`, `fragments`, `null`, `appending`) the keyed shape; any other object a
    /// container shape when one is in the set, else the plain shape. A payload is so read once,
    /// whatever its depth (trying each shape in turn would read a subtree nested d levels 2^d
    /// times when it fails at the bottom).
    public init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self.init(state: .none)
            return
        }
        let shape = try Self.shape(for: decoder, strategy: decoder.relationDecodingStrategy)
        (decoder.userInfo[.relataShapeAttempts] as? ShapeAttemptCounter)?.add()
        self.init(state: try Self.state(in: shape, from: decoder, single))
    }

    /// The one shape of `strategy` that reads the value of `decoder` (see ``init(from:)``).
    private static func shape(for decoder: any Decoder, strategy: RelationDecodingStrategy) throws -> RelationDecodingStrategy {
        let shapes = RelationDecodingStrategy.order.filter(strategy.contains)
        guard let last = shapes.last else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "the relation decoding strategy is empty"))
        }
        guard shapes.count > 1 else { return last }
        guard let object = try? decoder.container(keyedBy: AnyKey.self) else {
            // An array or a single value: only the plain shape reads those.
            return strategy.contains(.plain) ? .plain : last
        }
        let keys = object.allKeys.map(\.stringValue)
        if strategy.contains(.keyed), !keys.isEmpty, keys.allSatisfy(Self.keyedShapeKeys.contains) { return .keyed }
        if strategy.contains(.explicitKeyedContainer) { return .explicitKeyedContainer }
        if strategy.contains(.keyedContainer) { return .keyedContainer }
        return strategy.contains(.plain) ? .plain : last
    }

    private static var keyedShapeKeys: Set<String> { ["ids", "entities", "fragments", "null", "appending"] }

    /// Reads the relation in one shape.
    private static func state(
        in shape: RelationDecodingStrategy, from decoder: any Decoder, _ single: any SingleValueDecodingContainer
    ) throws -> State {
        switch shape {
        case .keyed: try Self(keyedFrom: decoder).state
        case .explicitKeyedContainer: try containerState(from: decoder, explicit: true)
        case .keyedContainer: try containerState(from: decoder, explicit: false)
        default: try Self(plainFrom: single).state
        }
    }

    private init(keyedFrom decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: KeyedShape.self)
        let appending = try container.decodeIfPresent(Bool.self, forKey: .appending) ?? false
        let state: State
        if try container.decodeIfPresent(Bool.self, forKey: .null) == true {
            state = .null
        } else if let ids = try container.decodeIfPresent([Entity.ID].self, forKey: .ids) {
            state = .ids(ids, appending: appending)
        } else if let entities = try container.decodeIfPresent([Entity].self, forKey: .entities) {
            state = .entities(entities, fragment: false, appending: appending)
        } else if let entities = try container.decodeIfPresent([Entity].self, forKey: .fragments) {
            state = .entities(entities, fragment: true, appending: appending)
        } else {
            throw DecodingError.dataCorrupted(.init(
                codingPath: decoder.codingPath,
                debugDescription: "relation to \(Entity.self) has none of the keys ids, entities, fragments, null"
            ))
        }
        try Self.validate(state, appending: appending, at: decoder.codingPath)
        self.init(state: state)
    }

    /// A decoded state a relation of this kind may hold: a to-one one value at most and never
    /// appending, a required one never null.
    static func validate(_ state: State, appending: Bool, at codingPath: [any CodingKey]) throws {
        if !isToMany, state.count > 1 || (appending && state.count > 0) {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath,
                debugDescription: "to-one relation to \(Entity.self) holds \(state.count) values or is appending"
            ))
        }
        if case .null = state, Constraints.self == Relations.Required.self {
            throw DecodingError.dataCorrupted(.init(
                codingPath: codingPath,
                debugDescription: "required relation to \(Entity.self) cannot be null"
            ))
        }
    }

    private init(plainFrom container: any SingleValueDecodingContainer) throws {
        let elements = Self.isToMany
            ? try container.decode([PlainElement].self)
            : [try container.decode(PlainElement.self)]
        if elements.allSatisfy({ if case .id = $0 { true } else { false } }) {
            self.init(state: .ids(elements.compactMap { $0.id }, appending: false))
        } else {
            self.init(state: .entities(elements.compactMap { $0.entity }, fragment: false, appending: false))
        }
    }

    /// `{"id": …}`: a related entity known by id only.
    private struct IDObject: Codable {
        let id: Entity.ID
    }

    /// One element of the plain shape: an id object or a full entity.
    private enum PlainElement: Decodable {
        case id(Entity.ID)
        case entity(Entity)

        var id: Entity.ID? { if case .id(let id) = self { id } else { nil } }
        var entity: Entity? { if case .entity(let entity) = self { entity } else { nil } }

        init(from decoder: any Decoder) throws {
            let keys = try decoder.container(keyedBy: AnyKey.self).allKeys
            if keys.count == 1, keys[0].stringValue == "id" {
                self = .id(try IDObject(from: decoder).id)
            } else {
                self = .entity(try Entity(from: decoder))
            }
        }
    }
}

extension Relation.State {
    var count: Int {
        switch self {
        case .none, .null: 0
        case .id: 1
        case .ids(let ids, _): ids.count
        case .entities(let entities, _, _): entities.count
        }
    }
}

struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension Relationship: Codable {
    /// Reads the relation (see ``Relation/init(from:)``).
    public init(from decoder: any Decoder) throws {
        self.init(relation: try Relation(from: decoder))
    }

    /// Writes the relation (see ``Relation/encode(to:)``).
    public func encode(to encoder: any Encoder) throws {
        try projectedValue.encode(to: encoder)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a relation property; a missing key is `.none` (used by synthesized `Decodable`).
    public func decode<Target, D, C>(
        _ type: Relationship<Target, D, C>.Type, forKey key: Key
    ) throws -> Relationship<Target, D, C> {
        try decodeIfPresent(type, forKey: key) ?? Relationship(relation: .none)
    }
}

extension KeyedEncodingContainer {
    /// Encodes a relation property (used by synthesized `Encodable`). In a stored payload an
    /// unknown (`.none`) relation is left out: stored entities are normalized, so every relation
    /// is `.none`, and decoding reads a missing key as `.none`.
    @inlinable
    public mutating func encode<Target, D, C>(_ value: Relationship<Target, D, C>, forKey key: Key) throws {
        if case .none = value.projectedValue.state, PayloadCoding.isEncodingPayload { return }
        try encodeValue(value, forKey: key)
    }

    /// The standard generic `encode(_:forKey:)` (not the overload above).
    @inlinable
    mutating func encodeValue<Value: Encodable>(_ value: Value, forKey key: Key) throws {
        try encode(value, forKey: key)
    }
}

/// Whether the current thread is encoding a stored payload (see `KeyedEncodingContainer.encode`).
@usableFromInline
enum PayloadCoding {
    @usableFromInline @TaskLocal static var isEncodingPayload = false

    /// Encodes `entity` as a stored payload (``PayloadFormat``): relations (all `.none` once
    /// normalized) left out.
    @usableFromInline
    static func encode<Entity: Encodable>(_ entity: Entity, with encoder: PayloadEncoder) throws -> Data {
        try $isEncodingPayload.withValue(true) { try encoder.encode(entity) }
    }

    /// Writes `entity` as a row of typed columns stores it: its columns apart, the rest a
    /// payload (``_SplitColumnWriter``) — what splitting the payload `Codable` writes gives, without
    /// the payload.
    static func splitEntity<Entity: EntityModelProtocol>(_ entity: Entity) throws -> SplitPayload {
        var writer = _SplitColumnWriter()
        try Entity._relataWriteColumns(entity, to: &writer)
        return try writer.split()
    }

    /// The row a write stores for `entity` (`nil`: a row that only holds to-one links).
    @usableFromInline
    static func record<Entity: EntityModelProtocol>(
        of entity: Entity?, type: String, id: String, toOne: [ToOneLinkRecord], updatedAt: Date?
    ) throws -> EntityRecord {
        let split = try entity.map(splitEntity) ?? SplitPayload(rest: Data(), properties: [])
        return EntityRecord(type: type, id: id, split: split, toOne: toOne, updatedAt: updatedAt)
    }

    /// Decodes a stored entity payload: its columns from ``PayloadFormat``, or JSON as written by
    /// versions before it.
    @usableFromInline
    static func decodeEntity<Entity: EntityModelProtocol>(_ type: Entity.Type, from payload: Data, with decoders: Decoders) throws -> Entity {
        guard PayloadFormat.isBinary(payload) else { return try decoders.json.decode(type, from: payload) }
        return try payload.withUnsafeBytes { bytes in
            // A payload alone: a row whose every property is in the payload.
            var reader = try _SplitColumnReader(columns: [], rest: payload, bytes: bytes)
            return try Entity(_relataColumns: &reader)
        }
    }

    /// Decodes a stored entity row: straight from its columns when storage kept them apart (see
    /// ``_SplitColumnReader``), otherwise from its payload (``decodeEntity(_:from:with:)``).
    @usableFromInline
    static func decodeEntity<Entity: EntityModelProtocol>(_ type: Entity.Type, from record: EntityRecord, with decoders: Decoders) throws -> Entity {
        guard !record.columns.isEmpty else { return try decodeEntity(type, from: record.rest, with: decoders) }
        return try record.rest.withUnsafeBytes { bytes in
            var reader = try _SplitColumnReader(columns: record.columns, rest: record.rest, bytes: bytes)
            return try Entity(_relataColumns: &reader)
        }
    }

    /// Decodes a stored payload: ``PayloadFormat``, or JSON as written by versions before it.
    @usableFromInline
    static func decode<Entity: Decodable>(_ type: Entity.Type, from payload: Data, with decoders: Decoders) throws -> Entity {
        if PayloadFormat.isBinary(payload) {
            return try decoders.binary.decode(type, from: payload)
        }
        return try decoders.json.decode(type, from: payload)
    }

    /// The decoders of one thread.
    @usableFromInline
    struct Decoders {
        @usableFromInline let binary = PayloadDecoder()
        @usableFromInline let json = JSONDecoder()
        @usableFromInline init() {}
    }
}
