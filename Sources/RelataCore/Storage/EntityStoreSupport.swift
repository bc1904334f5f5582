/// The store-side work of one entity type — a Store write's delta, the rows it changes, and
/// loading rows when a store opens — as closures built where the entity type is declared.
///
/// `@EntityModel` makes `_relataStoreSupport` return `_EntityStoreSupport(Self.self)` in the
/// model's own module. There the compiler specializes these generic paths for the model's
/// concrete id and relation types (a `String` id is hashed directly, not through witness tables
/// and generic metadata looked up at run time). A type that conforms to ``EntityModelProtocol``
/// by hand gets the default: the same work, unspecialized.
@_documentation(visibility: private)
public struct _EntityStoreSupport: Sendable {
    @usableFromInline let trackedDeltaReaders: @Sendable (AnyEntityTable, Context, Context) -> TableDeltaReaders?
    @usableFromInline let collectEntityRows: @Sendable (AnyEntityTable, StoreDelta, Context, Context, inout StoreChanges) throws -> Void
    @usableFromInline let collectLinkRows: @Sendable (AnyEntityTable, StoreDelta, Context, Context, inout StoreChanges) throws -> Void
    @usableFromInline let decodeEntities: EntityDecoder
    @usableFromInline let linkLoader: @Sendable (String) -> LinkRecordLoader?
    /// Gives a context over storage what reads this type's rows (``Context/init(over:)``).
    @usableFromInline let installOverlay: @Sendable (inout Context, ContextBase) -> Void

    /// The store-side work for `Entity`, compiled (specialized) where this initializer is called.
    @inlinable
    public init<Entity: EntityModelProtocol>(_: Entity.Type) {
        trackedDeltaReaders = { table, context, values in
            unsafeDowncast(table, to: EntityTable<Entity>.self).makeTrackedDeltaReaders(in: context, values: values)
        }
        collectEntityRows = { table, delta, after, before, changes in
            try unsafeDowncast(table, to: EntityTable<Entity>.self)
                .gatherEntityRows(of: delta, after: after, before: before, into: &changes)
        }
        collectLinkRows = { table, delta, after, before, changes in
            try unsafeDowncast(table, to: EntityTable<Entity>.self)
                .gatherLinkRows(of: delta, after: after, before: before, into: &changes)
        }
        decodeEntities = { records in try EntityLoader<Entity>.decodeEntities(records) }
        linkLoader = { relation in
            var finder = LinkLoaderFinder<Entity>(relation: relation)
            try? Entity._relataVisitRelations(&finder)
            return finder.loader
        }
        installOverlay = { context, base in context.installOverlay(Entity.self, base) }
    }
}
