/// One recorded change of a ``Context``: the unit a ``ChangeSet`` holds, replays and encodes.
@usableFromInline
protocol ChangeOperation: Sendable {
    /// When the change was made, and by which replica.
    var stamp: ChangeStamp { get }
    /// The entity type the change is about (the source type, for links).
    var entityTypeName: String { get }
    /// Applies the change to `context`, deriving everything else the original write derived
    /// (other sides, displaced links) but running no hook and recording nothing.
    func replay(into context: inout Context)
    /// Encodes the change's fields (its stamp is encoded by the change set).
    func encode(to container: inout KeyedEncodingContainer<ChangeCodingKey>) throws
}

/// The keys of an encoded change.
@usableFromInline
enum ChangeCodingKey: String, CodingKey {
    case stamp, kind, entity, id, value, strategy, relation, source, target, key, inverseKey, targetEntity
}

/// A saved entity: the value as saved (normalized) and the strategy it was merged with.
@usableFromInline
struct EntityUpsert<Entity: EntityModelProtocol>: ChangeOperation {
    @usableFromInline let stamp: ChangeStamp
    @usableFromInline let value: Entity
    /// `.replace` for strategies that have no name (their result travels as `value`).
    @usableFromInline let strategy: MergeStrategy<Entity>.ReplayName

    @usableFromInline
    init(stamp: ChangeStamp, value: Entity, strategy: MergeStrategy<Entity>.ReplayName) {
        self.stamp = stamp
        self.value = value
        self.strategy = strategy
    }

    @usableFromInline var entityTypeName: String { _typeName(Entity.self, qualified: false) }

    @usableFromInline func replay(into context: inout Context) {
        let options: MergeStrategy<Entity> =
            switch strategy {
            case .replace: .replace
            case .default: Entity.defaultMergeStrategy
            case .fragment: Entity.fragmentMergeStrategy
            }
        context.storeEntity(value, options: options)
    }

    @usableFromInline func encode(to container: inout KeyedEncodingContainer<ChangeCodingKey>) throws {
        try container.encode("upsert", forKey: .kind)
        try container.encode(strategy.rawValue, forKey: .strategy)
        try container.encode(value, forKey: .value)
    }
}

/// An erased entity (its cascade is recorded as erasures of their own).
@usableFromInline
struct EntityErasure<Entity: EntityModelProtocol>: ChangeOperation {
    @usableFromInline let stamp: ChangeStamp
    @usableFromInline let id: Entity.ID

    @usableFromInline
    init(stamp: ChangeStamp, id: Entity.ID) {
        self.stamp = stamp
        self.id = id
    }

    @usableFromInline var entityTypeName: String { _typeName(Entity.self, qualified: false) }

    @usableFromInline func replay(into context: inout Context) {
        // The replica keeps its own tombstone (change sets carry none; see `Deleted`).
        var tombstone: Deleted<Entity>?
        if let entity = context.table(Entity.self)?.entity(id) {
            tombstone = context.tombstone(of: entity)
            let table = context.mutableTable(Entity.self)
            table.setEntity(nil, for: id)
            table.touch(id)
        }
        context.eraseLinks(of: Entity.self, id: id)
        if let tombstone { context.upsert(tombstone, options: .replace, recording: false) }
    }

    @usableFromInline func encode(to container: inout KeyedEncodingContainer<ChangeCodingKey>) throws {
        try container.encode("erase", forKey: .kind)
        try container.encode(id, forKey: .id)
    }
}

/// A link created, moved or removed, with the position keys the writer chose.
@usableFromInline
struct LinkChange<Source: EntityModelProtocol, Target: EntityModelProtocol>: ChangeOperation {
    @usableFromInline
    enum Kind: String, Sendable {
        /// `source` links to `target` (at `key` in a to-many relation; at `inverseKey` in a
        /// to-many inverse). Replaces the target of a to-one relation.
        case link
        /// `target` moves to `key` among the targets of `source`, if it is still linked.
        case move
        /// `source` no longer links to `target`.
        case unlink
    }

    @usableFromInline let stamp: ChangeStamp
    @usableFromInline let kind: Kind
    @usableFromInline let descriptor: RelationDescriptor<Source, Target>
    @usableFromInline let source: Source.ID
    @usableFromInline let target: Target.ID
    @usableFromInline let key: PositionKey?
    @usableFromInline let inverseKey: PositionKey?

    @usableFromInline
    init(
        stamp: ChangeStamp, kind: Kind, descriptor: RelationDescriptor<Source, Target>,
        source: Source.ID, target: Target.ID, key: PositionKey?, inverseKey: PositionKey?
    ) {
        self.stamp = stamp
        self.kind = kind
        self.descriptor = descriptor
        self.source = source
        self.target = target
        self.key = key
        self.inverseKey = inverseKey
    }

    @usableFromInline var entityTypeName: String { _typeName(Source.self, qualified: false) }

    @usableFromInline func replay(into context: inout Context) {
        switch kind {
        case .link:
            context.replayLink(descriptor, source: source, target: target, key: key, inverseKey: inverseKey)
        case .move:
            guard let key else { return }
            let table = context.mutableTable(Source.self).linkTable(descriptor.key, Target.ID.self)
            if table.list(of: source)?.contains(target) == true {
                table.place(target, in: source, at: key)
            }
        case .unlink:
            context.unlink(descriptor, source: source, from: [target])
        }
    }

    @usableFromInline func encode(to container: inout KeyedEncodingContainer<ChangeCodingKey>) throws {
        try container.encode(kind.rawValue, forKey: .kind)
        try container.encode(descriptor.name, forKey: .relation)
        try container.encode(source, forKey: .source)
        try container.encode(target, forKey: .target)
        try container.encodeIfPresent(key, forKey: .key)
        try container.encodeIfPresent(inverseKey, forKey: .inverseKey)
    }
}
