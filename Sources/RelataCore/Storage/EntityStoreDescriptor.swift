/// The store-side code of one entity type, which the store calls directly: what reads a Store
/// write's delta from the marks of the type's table, the rows that delta writes (entity rows
/// with their typed columns and to-one links, link rows), the decoding of the type's rows, the
/// loader of each relation's link rows, and what gives a context over storage the readers of
/// the type's tables.
///
/// `@EntityModel` generates `_relataStoreDescriptor`, returning `_EntityStoreDescriptor(Self.self)`,
/// in the model's own module. There each entry is compiled specialized for the model's concrete
/// id, column and relation types (a `String` id is hashed directly, not through witness tables
/// and generic metadata looked up at run time). Every entry runs code of its own files
/// (`TableDeltaReaders`, `EntityTable+Rows`, `EntityLoader`, `LinkLoader`, `OverlayPlan`),
/// never back into its caller's. A type that conforms to ``EntityModelProtocol`` by hand gets
/// the protocol's default: the same descriptor, unspecialized.
@_documentation(visibility: private)
public struct _EntityStoreDescriptor: Sendable {
    /// What reads the table's part of a Store write's delta (`Context.trackedDelta`): the table
    /// (of this type), the context whose marks it holds, and the context holding the values.
    @usableFromInline let deltaReaders: @Sendable (AnyEntityTable, Context, Context) -> TableDeltaReaders?
    /// Adds the entity rows of a delta for this type: the table (of this type) in the state
    /// after the write, the delta, that state, the state before.
    @usableFromInline let entityRows: @Sendable (AnyEntityTable, StoreDelta, Context, Context, inout StoreChanges) throws -> Void
    /// Adds the link rows of a delta for this type's to-many relations (arguments as ``entityRows``).
    @usableFromInline let linkRows: @Sendable (AnyEntityTable, StoreDelta, Context, Context, inout StoreChanges) throws -> Void
    /// Decodes stored rows of this type (a whole load).
    @usableFromInline let decodeEntities: EntityDecoder
    /// The loader of the link rows of the relation named so, if the type has one.
    @usableFromInline let linkLoader: @Sendable (String) -> LinkRecordLoader?
    /// Gives a context over storage what reads this type's rows (``Context/init(over:)``).
    @usableFromInline let installOverlay: @Sendable (inout Context, ContextBase) -> Void

    /// The descriptor of `Entity`, compiled (specialized) where this initializer is called.
    @inlinable
    public init<Entity: EntityModelProtocol>(_: Entity.Type) {
        deltaReaders = { table, context, values in
            TableDeltaReaders(marksOf: unsafeDowncast(table, to: EntityTable<Entity>.self), in: context, values: values)
        }
        entityRows = { table, delta, after, before, changes in
            try unsafeDowncast(table, to: EntityTable<Entity>.self).gatherEntityRows(of: delta, after: after, before: before, into: &changes)
        }
        linkRows = { table, delta, after, before, changes in
            try unsafeDowncast(table, to: EntityTable<Entity>.self).gatherLinkRows(of: delta, after: after, before: before, into: &changes)
        }
        decodeEntities = { records in try EntityLoader<Entity>.decodeEntities(records) }
        linkLoader = { relation in LinkLoaderFinder<Entity>.loader(of: relation) }
        installOverlay = { context, base in OverlayPlan<Entity>.shared.install(in: &context, over: base) }
    }
}
