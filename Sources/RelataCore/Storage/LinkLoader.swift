import Foundation

/// Places the links of one relation as their rows arrive (grouped by source).
///
/// The work is done by closures that ``LinkLoader`` sets when it is made, where the types are
/// concrete (see ``_EntityStoreDescriptor``): an overridden method of a generic class would run
/// unspecialized.
@usableFromInline
class LinkRecordLoader {
    /// Whether rows written before mutual relations were stored once per pair were met: the
    /// Store then rewrites the links in the current form.
    @usableFromInline var sawLegacyRows = false
    /// The rows of the side of a mutual relation that is no longer stored, and the link rows of
    /// to-one links (now kept in entity rows), met while loading.
    @usableFromInline var legacyRows: [LinkKey] = []
    /// Whether the links being added come from entity rows (where to-one links belong) rather
    /// than from link rows.
    @usableFromInline var readingEntityRows = false
    /// Where the current form keeps this relation's links: `nil` when the other side of a
    /// mutual relation stores them, `true` in link rows (to-many), `false` in entity rows (to-one).
    @usableFromInline var storedInLinkRows: Bool? = nil
    @usableFromInline var addRow: (LinkRecordLoader, LinkRecord, inout Context) throws -> Void = { _, _, _ in }
    @usableFromInline var finishRows: (LinkRecordLoader, inout Context) throws -> Void = { _, _ in }

    @usableFromInline init() {}

    func add(_ record: LinkRecord, into context: inout Context) throws { try addRow(self, record, &context) }
    /// Places what is gathered.
    func finish(into context: inout Context) throws { try finishRows(self, &context) }
}

@usableFromInline
final class LinkLoader<Source: EntityModelProtocol, Target: EntityModelProtocol>: LinkRecordLoader {
    @usableFromInline let descriptor: RelationDescriptor<Source, Target>
    @usableFromInline let side: StoredSide
    /// The link table and backlink index being filled (the loader's context is not shared while
    /// it loads, so they stay the live ones).
    @usableFromInline var table: LinkTable<Source.ID, Target.ID>?
    @usableFromInline var inverseTable: LinkTable<Target.ID, Source.ID>?
    @usableFromInline var backlinks: Backlinks<Source, Target>?
    /// The to-many targets of `source` gathered so far, to be placed in one step.
    @usableFromInline var source: Source.ID?
    @usableFromInline var targets: [Target.ID] = []
    @usableFromInline var keys: [PositionKey] = []
    /// The to-many inverse sides gathered from pair rows, placed when the relation is done.
    @usableFromInline var inverse: [Target.ID: (sources: [Source.ID], keys: [PositionKey])] = [:]

    @inlinable
    init(descriptor: RelationDescriptor<Source, Target>) {
        self.descriptor = descriptor
        side = descriptor.storedSide
        super.init()
        storedInLinkRows = side == .derived ? nil : descriptor.key.toMany
        // Made here, specialized for Source and Target. They capture nothing: the loader that
        // owns them is handed to them.
        addRow = { loader, record, context in
            try unsafeDowncast(loader, to: LinkLoader.self).addLink(record, into: &context)
        }
        finishRows = { loader, context in
            try unsafeDowncast(loader, to: LinkLoader.self).finishLinks(into: &context)
        }
    }

    @usableFromInline
    func failure(_ record: LinkRecord, _ message: String) -> RelataError {
        RelataError(
            code: .undecodableRecord, entityType: record.type, id: record.source, relation: record.relation,
            message: "the stored link to \"\(record.target)\" \(message)"
        )
    }

    @inlinable
    func tables(_ context: inout Context) -> LinkTable<Source.ID, Target.ID> {
        if let table { return table }
        let table = context.mutableTable(Source.self).linkTable(descriptor.key, Target.ID.self)
        if descriptor.inverse == nil { backlinks = context.backlinks(descriptor) }
        if side != .own, let inverse = descriptor.inverse {
            inverseTable = context.mutableTable(Target.self).linkTable(inverse, Source.ID.self)
        }
        self.table = table
        return table
    }

    @inlinable
    func addLink(_ record: LinkRecord, into context: inout Context) throws {
        guard let source = try? IDText.decode(record.source, as: Source.ID.self) else {
            throw failure(record, "has a source id that does not decode")
        }
        guard let target = try? IDText.decode(record.target, as: Target.ID.self) else {
            throw failure(record, "has an id that does not decode")
        }
        if side == .derived || (!descriptor.key.toMany && !readingEntityRows) {
            // The other side stores this pair, or a to-one link in a link row (written before
            // to-one links moved into entity rows).
            sawLegacyRows = true
            legacyRows.append(record.key)
        }
        let table = tables(&context)
        // A row of either side of a mutual relation also sets the other side (a `.derived` row
        // was written when that side stored the pairs, or both sides had rows).
        if side != .own, let inverse = descriptor.inverse {
            if !inverse.toMany {
                inverseTable!.setOne(source, for: target)
            } else if let text = record.inversePosition {
                guard let key = PositionKey(text) else { throw failure(record, "has no valid inverse position") }
                self.inverse[target, default: ([], [])].sources.append(source)
                self.inverse[target]!.keys.append(key)
            } else {
                sawLegacyRows = true  // written before pairs: the other side has its own rows
            }
        }
        guard descriptor.key.toMany else {
            // A link met twice (an entity row and a link row of the older form) is placed once;
            // a new one is appended to its target's backlinks without a scan (`insertNew`).
            if let backlinks, table.one[source] != target {
                backlinks.insertNew(source, for: target)
            }
            table.setOne(target, for: source)
            return
        }
        guard let text = record.position, let key = PositionKey(text) else {
            throw failure(record, "has no valid position")
        }
        if source != self.source {
            finishSource(into: &context)
            self.source = source
        }
        targets.append(target)
        keys.append(key)
    }

    @inlinable
    func finishLinks(into context: inout Context) throws {
        finishSource(into: &context)
        guard let inverseTable, !inverse.isEmpty else { return }
        for (target, gathered) in inverse {
            Self.place(gathered.sources, gathered.keys, for: target, in: inverseTable)
        }
        inverse = [:]
    }

    @inlinable
    func finishSource(into context: inout Context) {
        guard let source else { return }
        defer {
            self.source = nil
            targets.removeAll(keepingCapacity: true)
            keys.removeAll(keepingCapacity: true)
        }
        Self.place(targets, keys, for: source, in: tables(&context))
        if let backlinks {
            for target in targets { backlinks.insert(source, for: target) }
        }
    }

    /// Places `targets` at `keys` in the list of `source`: one sorted build when the list is new.
    @inlinable
    static func place<S: Hashable & Sendable, T: Hashable & Sendable>(
        _ targets: [T], _ keys: [PositionKey], for source: S, in table: LinkTable<S, T>
    ) {
        if table.many[source] == nil, Set(targets).count == targets.count {
            table.many[source] = OrderedLinks(unsortedTargets: targets, keys: keys)
        } else {
            for index in targets.indices { table.place(targets[index], in: source, at: keys[index]) }
        }
    }
}

@usableFromInline
struct LinkLoaderFinder<Entity: EntityModelProtocol>: _RelationVisitor {
    @usableFromInline let relation: String
    @usableFromInline var loader: LinkRecordLoader?

    @inlinable
    init(relation: String) {
        self.relation = relation
    }

    /// The loader of the link rows of `Entity`'s relation named `relation`, if it has one.
    @inlinable
    static func loader(of relation: String) -> LinkRecordLoader? {
        var finder = LinkLoaderFinder(relation: relation)
        try? Entity._relataVisitRelations(&finder)
        return finder.loader
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard loader == nil, descriptor.name == relation else { return }
        loader = LinkLoader(descriptor: descriptor)
    }
}
