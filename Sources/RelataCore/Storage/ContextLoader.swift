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
    private var entityLoaders: [String: EntityDecoder?] = [:]
    private var linkLoaders: [String: [String: LinkRecordLoader?]] = [:]

    init(schema: EntitySchema) {
        self.schema = schema
    }

    /// Entity rows waiting to be decoded together (on every core), by type.
    private var pendingEntities: [String: [EntityRecord]] = [:]

    /// The to-one links read from entity rows, by type and relation, placed once the link rows
    /// are done.
    private var rowLinks: [String: [String: [LinkRecord]]] = [:]

    /// Those of the type whose rows are arriving, by relation (moved into ``rowLinks`` when the
    /// type changes).
    private var currentRowLinks: (type: String, links: [String: [LinkRecord]])?

    private mutating func keepCurrentRowLinks() {
        guard let current = currentRowLinks else { return }
        currentRowLinks = nil
        rowLinks[current.type] = current.links
    }

    /// Rows stored under a type's name without its module (before names were qualified): they
    /// are rewritten under the qualified name, once, at open (see ``upgrade()``).
    private var legacyEntityKeys: [EntityKey] = []
    private var legacyLinkKeys: [LinkKey] = []
    private var legacyDynamicLinks: [DynamicLinkRecord] = []

    /// The last type name asked about, and whether it is a short name: rows come grouped by
    /// type, so one row in thousands pays for the schema's hash lookup.
    private var lastName: (name: String, isShort: Bool)?

    /// Whether `name` is a type's name without its module (see ``EntitySchema/isShortName(_:)``).
    private mutating func isShortName(_ name: String) -> Bool {
        if let lastName, lastName.name == name { return lastName.isShort }
        let isShort = schema.isShortName(name)
        lastName = (name, isShort)
        return isShort
    }

    mutating func load(_ record: EntityRecord) throws {
        if isShortName(record.type) { legacyEntityKeys.append(EntityKey(type: record.type, id: record.id)) }
        if !record.toOne.isEmpty {
            if currentRowLinks?.type != record.type {
                // Rows come grouped by type: the type's name is hashed once per group, not once
                // per link (a module-qualified name is too long to be stored inline).
                keepCurrentRowLinks()
                currentRowLinks = (record.type, rowLinks.removeValue(forKey: record.type) ?? [:])
            }
            for link in record.toOne {
                currentRowLinks!.links[link.relation, default: []].append(
                    LinkRecord(
                        type: record.type, relation: link.relation, source: record.id, target: link.target,
                        position: nil, inversePosition: link.inversePosition
                    )
                )
            }
        }
        // An empty payload: a row that only holds links (its source was never saved).
        guard record.hasEntity else { return }
        pendingEntities[record.type, default: []].append(record)
    }

    /// Entity payloads being decoded in the background while link rows load.
    private var decoding: DecodingJob?

    /// Starts decoding the pending entities in the background (on every core).
    private mutating func startDecoding() {
        guard !pendingEntities.isEmpty else { return }
        var work: [(EntityDecoder, [EntityRecord])] = []
        for (type, records) in pendingEntities.sorted(by: { $0.key < $1.key }) {
            let loader: EntityDecoder?
            if let cached = entityLoaders[type] {
                loader = cached
            } else {
                loader = schema.type(named: type).map { $0._relataStoreDescriptor.decodeEntities }
                entityLoaders[type] = loader
            }
            guard let loader else {
                ignored[type, default: 0] += records.count
                continue
            }
            work.append((loader, records))
        }
        pendingEntities = [:]
        let job = DecodingJob()
        let batches = work
        decoding = job
        job.group.enter()
        DispatchQueue.global().async {
            defer { job.group.leave() }
            do {
                job.inserts = try batches.map { decode, records in try decode(records) }
            } catch {
                job.error = error
            }
        }
    }

    /// Waits for the decoding started by ``startDecoding()`` and stores the entities.
    private mutating func finishDecoding() throws {
        startDecoding()
        guard let job = decoding else { return }
        decoding = nil
        job.group.wait()
        if let error = job.error { throw error }
        for insert in job.inserts { insert(&context) }
    }

    /// The relation whose links are arriving (rows come grouped by type and relation), and its loader.
    private var current: (type: String, relation: String, loader: LinkRecordLoader?)?

    mutating func load(_ record: LinkRecord) throws {
        startDecoding()
        if current == nil || current!.relation != record.relation || current!.type != record.type {
            try finishLinks()
            current = (record.type, record.relation, linkLoader(type: record.type, relation: record.relation))
        }
        guard let loader = current!.loader else {
            // Kept as it is, under its old name too: an upgrade never deletes what it does not
            // understand (it is counted, and left for a model that has the relation again).
            ignored["\(record.type).\(record.relation)", default: 0] += 1
            return
        }
        if isShortName(record.type) { legacyLinkKeys.append(record.key) }
        try loader.add(record, into: &context)
    }

    /// Places what is still gathered; call once after the last row.
    mutating func flush() throws {
        try finishLinks()
        startDecoding()
        try placeRowLinks()
        try finishDecoding()
        // The entities were stored without their indexes in memory: made now, once.
        for table in context.storage.tables { table.remakeIndexes() }
    }

    /// Places the to-one links read from entity rows, one relation at a time.
    private mutating func placeRowLinks() throws {
        keepCurrentRowLinks()
        let gathered = rowLinks
        rowLinks = [:]
        for (type, relations) in gathered {
            for (relation, records) in relations {
                guard let loader = linkLoader(type: type, relation: relation) else {
                    ignored["\(type).\(relation)", default: 0] += records.count
                    continue
                }
                loader.readingEntityRows = true
                defer { loader.readingEntityRows = false }
                for record in records { try loader.add(record, into: &context) }
                try loader.finish(into: &context)
            }
        }
    }

    private mutating func finishLinks() throws {
        guard let loader = current?.loader else { return }
        try loader.finish(into: &context)
        current = nil
    }

    /// The rows to rewrite when the store was written by an older version — links stored before
    /// mutual relations were stored once per pair (see ``LinkRecord``), or types stored under
    /// their names without module — every row in the current form, and the old rows removed:
    /// `nil` when there are none.
    func upgrade() throws -> StoreChanges? {
        let loaders = linkLoaders.values.flatMap { $0.values.compactMap { $0 } }
        let legacyNames = !legacyEntityKeys.isEmpty || !legacyLinkKeys.isEmpty || !legacyDynamicLinks.isEmpty
        guard legacyNames || loaders.contains(where: { $0.sawLegacyRows }) else { return nil }
        var current = context
        let tracker = ChangeTracker()
        current.markAllChanged(since: Context(), tracker: tracker)
        var changes = try current.trackedDelta().rows(after: current, before: Context())
        tracker.end()
        changes.deletedLinks = Array(Set(loaders.flatMap(\.legacyRows) + legacyLinkKeys))
        changes.deletedEntities += legacyEntityKeys
        changes.deletedDynamicLinks += legacyDynamicLinks
        return changes
    }

    private mutating func linkLoader(type: String, relation: String) -> LinkRecordLoader? {
        if let cached = linkLoaders[type]?[relation] { return cached }
        let loader = schema.type(named: type).flatMap { $0._relataStoreDescriptor.linkLoader(relation) }
        linkLoaders[type, default: [:]][relation] = loader
        return loader
    }

    /// Loads a dynamic relationship. One whose kind or end types are unknown, or whose ends are
    /// not stored, is skipped and counted under `"dynamic links"`.
    mutating func load(_ record: DynamicLinkRecord) throws {
        try flush()
        guard let kind = DynamicLink.Kind(rawValue: record.kind),
            let sourceType = schema.type(named: record.sourceType),
            let targetType = schema.type(named: record.targetType)
        else {
            // Kept as it is (see the link rows above).
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
        // Rewritten under the qualified names by the upgrade (it is loaded, so written again).
        if isShortName(record.sourceType) || isShortName(record.targetType) {
            legacyDynamicLinks.append(record)
        }
        context.mutableDynamicLinks().insert(DynamicLink(kind, source, target))
    }

}

/// Decodes entities of one type (on every core); returns what stores them.
@usableFromInline
typealias EntityDecoder = @Sendable ([EntityRecord]) throws -> @Sendable (inout Context) -> Void

/// Decoding that runs beside the loading of links (entities and links go to different tables;
/// the entities are stored once both are done).
private final class DecodingJob: @unchecked Sendable {
    let group = DispatchGroup()
    // Written by the decoding thread before `group.leave()`, read after `group.wait()`.
    var inserts: [@Sendable (inout Context) -> Void] = []
    var error: (any Error)?
}
