/// What one ``Store`` write changed, as values: the entities stored or erased per type, the links
/// set or removed per relation (with their positions), and the dynamic relationships made or
/// removed.
///
/// A write's change tracker produces one delta; the store persists it (as rows), applies it to
/// its second copy of the state, and hands it on. It holds the *new* values at every place the
/// write touched, so applying it to the state before the write gives the state after it:
///
/// ```swift
/// var copy = before
/// delta.apply(to: &copy)      // copy now equals the state the write published
/// ```
///
/// Both sides of a mutual link are in it (each relation's own entries), and so are the sources
/// of one-way links (their targets' backlinks follow from them when applied). An entry may repeat
/// when the write touched the same place twice; every repeat carries the same final value.
public struct StoreDelta: Sendable {
    /// The changes of each entity type the write touched.
    @usableFromInline var tables: [TableChange] = []
    /// Dynamic relationships made (`true`) or removed (`false`).
    var dynamicLinks: [(link: DynamicLink, present: Bool)] = []

    /// No change.
    public init() {}

    /// Whether the write changed nothing.
    public var isEmpty: Bool {
        tables.isEmpty && dynamicLinks.isEmpty
    }

    /// How many entries the delta holds (entities, links and dynamic relationships).
    public var count: Int {
        tables.reduce(dynamicLinks.count) { $0 + $1.count }
    }

    /// The ids of the entities of `type` that the write stored (new or changed).
    ///
    /// - Complexity: O(entities of `type` in the delta).
    public func storedIDs<Entity: EntityModelProtocol>(of type: Entity.Type) -> [Entity.ID] {
        entities(of: type).compactMap { $0.value == nil ? nil : $0.id }
    }

    /// The ids of the entities of `type` that the write erased.
    ///
    /// - Complexity: O(entities of `type` in the delta).
    public func erasedIDs<Entity: EntityModelProtocol>(of type: Entity.Type) -> [Entity.ID] {
        entities(of: type).compactMap { $0.value == nil ? $0.id : nil }
    }

    /// The entity entries of `type`: each id with its new value, `nil` when erased.
    @usableFromInline
    func entities<Entity: EntityModelProtocol>(of type: Entity.Type) -> ContiguousArray<(id: Entity.ID, value: Entity?)> {
        table(of: type)?.entities ?? []
    }

    /// The changes of `type`, if the write touched it.
    @usableFromInline
    func table<Entity: EntityModelProtocol>(of type: Entity.Type) -> TableDelta<Entity>? {
        for table in tables where table.type == ObjectIdentifier(type) {
            return table.changes as? TableDelta<Entity>
        }
        return nil
    }

    /// Brings `context`, equal to the state before the write, to the state after it.
    ///
    /// - Complexity: O(entries · log n), n the size of the longest link list touched.
    public func apply(to context: inout Context) {
        apply(to: &context, onEveryCore: false)
    }

    /// Applies the delta; with `onEveryCore`, a large delta's tables and relations are written
    /// on several threads at once (each writes objects of its own), and the caller waits: call
    /// it so only off Swift's cooperative pool (the store's writer queue does).
    func apply(to context: inout Context, onEveryCore: Bool) {
        // Every table the works write is bound first (made unique to `context`), then the works
        // run: the works of link tables first, those of entity tables last, because an entity
        // work holds its table, which would make a later bind copy it.
        var works: [@Sendable () -> Void] = [], sizes: [Int] = []
        for table in tables {
            for relation in table.relations {
                works.append(relation.bind(&context))
                sizes.append(relation.count)
            }
        }
        for table in tables {
            works.append(table.bindEntities(&context))
            sizes.append(table.entityCount)
        }
        if !dynamicLinks.isEmpty {
            let links = context.mutableDynamicLinks()
            for (link, present) in dynamicLinks {
                if present { links.insert(link) } else { links.remove(link) }
            }
        }
        if onEveryCore, count >= ParallelCoding.threshold {
            _ = ParallelCoding.each(works, sizes: sizes)
        } else {
            for work in works { work() }
        }
    }
}

/// The changes of one entity type in a ``StoreDelta``.
@usableFromInline
struct TableChange: Sendable {
    /// `ObjectIdentifier` of the entity type.
    @usableFromInline let type: ObjectIdentifier
    /// The typed changes: a `TableDelta<Entity>`.
    @usableFromInline let changes: any Sendable
    /// The changes of each relation of the type that the write touched.
    @usableFromInline let relations: [RelationChange]
    /// Finds the entity table in a context (unique to it) and returns what writes the entities.
    @usableFromInline let bindEntities: @Sendable (inout Context) -> @Sendable () -> Void
    /// Entity entries plus link entries.
    @usableFromInline let count: Int
    /// Entity entries.
    @usableFromInline let entityCount: Int

    @inlinable
    init(
        type: ObjectIdentifier, changes: any Sendable, relations: [RelationChange],
        bindEntities: @escaping @Sendable (inout Context) -> @Sendable () -> Void, entityCount: Int
    ) {
        self.type = type
        self.changes = changes
        self.relations = relations
        self.bindEntities = bindEntities
        self.entityCount = entityCount
        count = entityCount + relations.reduce(0) { $0 + $1.count }
    }
}

extension TableChange {
    /// The same changes with these relations.
    @inlinable
    func with(_ relations: [RelationChange]) -> TableChange {
        TableChange(type: type, changes: changes, relations: relations, bindEntities: bindEntities, entityCount: entityCount)
    }
}

/// The changes of one relation in a ``StoreDelta``.
@usableFromInline
struct RelationChange: Sendable {
    /// The relation.
    @usableFromInline let key: _AnyRelationKey
    /// The typed changes: a `RelationDelta<Source, Target>`.
    @usableFromInline let changes: any Sendable
    /// Finds the link table (and backlinks) in a context and returns what writes the links.
    @usableFromInline let bind: @Sendable (inout Context) -> @Sendable () -> Void
    /// The number of entries.
    @usableFromInline let count: Int

    @inlinable
    init(key: _AnyRelationKey, changes: any Sendable, bind: @escaping @Sendable (inout Context) -> @Sendable () -> Void, count: Int) {
        self.key = key
        self.changes = changes
        self.bind = bind
        self.count = count
    }
}

/// The entity entries of one type: each id the write touched, with its value after the write
/// (`nil`: erased).
@usableFromInline
struct TableDelta<Entity: EntityModelProtocol>: Sendable {
    @usableFromInline var entities: ContiguousArray<(id: Entity.ID, value: Entity?)>
    /// The ids of ``entities``, as a set (the write's marks: no copy is made for it).
    @usableFromInline let ids: Set<Entity.ID>

    @inlinable
    init(entities: ContiguousArray<(id: Entity.ID, value: Entity?)>, ids: Set<Entity.ID>) {
        self.entities = entities
        self.ids = ids
    }
}

/// The link entries of one relation: for a to-one relation each source the write touched with
/// its target after the write; for a to-many relation each (source, target) pair the write
/// touched with the target's position key after it (`nil`: unlinked).
@usableFromInline
struct RelationDelta<Source: EntityModelProtocol, Target: EntityModelProtocol>: Sendable {
    @usableFromInline let descriptor: RelationDescriptor<Source, Target>
    @usableFromInline var toOne: ContiguousArray<(source: Source.ID, target: Target.ID?)> = []
    @usableFromInline var toMany: ContiguousArray<(source: Source.ID, target: Target.ID, key: PositionKey?)> = []

    @inlinable
    init(descriptor: RelationDescriptor<Source, Target>) {
        self.descriptor = descriptor
    }

    @inlinable var count: Int { toOne.count + toMany.count }
}
