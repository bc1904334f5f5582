/// Reads the links of sources a ``LinkTable`` does not hold, from a ``ContextBase``: for one
/// side of one relation, made by `Context.init(over:)` where the relation's types are known.
@usableFromInline
final class LinkFaulter<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    /// The links of a batch of sources: to-one targets, or to-many targets with their keys in
    /// order; `nil` when the read failed (the base keeps the error).
    @usableFromInline typealias Load = ([SourceID]) -> (one: [SourceID: TargetID], many: [SourceID: OrderedLinks<TargetID>])?

    @usableFromInline let read: Load
    /// Reads what ``read`` reads, with the targets' entity rows in the same statement (kept by
    /// the read transaction for the fetch of the targets that follows: see `StashingReader`);
    /// `nil` where the targets' rows cannot come with the links (a to-one side stored in the
    /// sources' rows).
    @usableFromInline let readWithTargets: Load?
    /// The targets of one to-many source in a page of its list, with their keys, read by index
    /// without the rest of the list; `nil` for a to-one side, and its result `nil` when the read
    /// failed.
    @usableFromInline let page: ((SourceID, ListPage) -> [(target: TargetID, key: PositionKey)]?)?
    /// How many targets each of a batch of to-many sources has (a source without any left out),
    /// counted without reading the links; its result `nil` when the read failed.
    @usableFromInline let count: (([SourceID]) -> [SourceID: Int]?)?

    /// The last key of each of a batch of to-many sources' lists (a source with an empty list
    /// left out), read in one batch; `nil` for a to-one side, and its result `nil` when the read
    /// failed.
    @usableFromInline let tails: (([SourceID]) -> [SourceID: PositionKey]?)?

    @usableFromInline
    init(
        read: @escaping Load, readWithTargets: Load? = nil, page: ((SourceID, ListPage) -> [(target: TargetID, key: PositionKey)]?)? = nil,
        count: (([SourceID]) -> [SourceID: Int]?)? = nil, tails: (([SourceID]) -> [SourceID: PositionKey]?)? = nil
    ) {
        self.read = read
        self.readWithTargets = readWithTargets
        self.page = page
        self.count = count
        self.tails = tails
    }

    /// Puts the links of `sources` in `table` (replacing what it held for them: only sources it
    /// does not hold whole are asked for) and notes them as held; `withTargets`: the targets'
    /// rows are read in the same statement where the side can (``readWithTargets``).
    @inlinable
    func load(_ sources: [SourceID], into table: LinkTable<SourceID, TargetID>, withTargets: Bool = false) {
        guard let links = (withTargets ? readWithTargets ?? read : read)(sources) else { return }
        if !links.one.isEmpty { table.readStored = true }
        // A source not held has no link in the table, but for targets appended to its list
        // before the list was read (``LinkTable/storedTails``): a source without stored links
        // costs the loaded mark alone.
        let hasOne = !links.one.isEmpty, hasMany = !links.many.isEmpty
        table.loaded.reserveCapacity(table.loaded.count + sources.count)
        for source in sources {
            if hasOne, let target = links.one[source] { table.one[source] = table.unclaimed(target, of: source) }
            var stored = hasMany ? links.many[source] : nil
            if !table.departed.isEmpty, stored != nil { table.dropDeparted(from: &stored!, of: source) }
            if !table.storedTails.isEmpty, table.storedTails.removeValue(forKey: source) != nil {
                // Targets appended after the list before it was read: placed in it at their keys.
                var list = stored ?? OrderedLinks()
                if !table.provisional.isEmpty, table.provisional.remove(source) != nil {
                    // Appended with provisional keys: placed after the list just read.
                    table.placeProvisional(of: source, after: list.keys.last, into: &list)
                } else if let appended = table.many[source] {
                    for (target, key) in zip(appended.targets, appended.keys) { list.place(target, at: key) }
                }
                table.many[source] = list.isEmpty ? nil : list
            } else if let stored {
                table.many[source] = stored
            }
            table.loaded.insert(source)
        }
    }
}

/// Reads the sources of one-way links to targets a ``Backlinks`` index does not hold.
@usableFromInline
final class BacklinkFaulter<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: @unchecked Sendable {
    @usableFromInline typealias Load = ([TargetID]) -> [TargetID: Set<SourceID>]?

    @usableFromInline let read: Load
    /// The targets of one to-many source in a page of its list, with their keys, read by index
    /// without the rest of the list; `nil` for a to-one side, and its result `nil` when the read
    /// failed.
    @usableFromInline let page: ((SourceID, ListPage) -> [(target: TargetID, key: PositionKey)]?)?
    /// How many targets each of a batch of to-many sources has (a source without any left out),
    /// counted without reading the links; its result `nil` when the read failed.
    @usableFromInline let count: (([SourceID]) -> [SourceID: Int]?)?

    @usableFromInline
    init(read: @escaping Load, page: ((SourceID, ListPage) -> [(target: TargetID, key: PositionKey)]?)? = nil, count: (([SourceID]) -> [SourceID: Int]?)? = nil) {
        self.read = read
        self.page = page
        self.count = count
    }
}

/// Reads the entities an ``EntityTable`` does not hold: by id, or every one of the type. The
/// rows read also hold the sources' to-one links, which go to their link tables on the way.
@usableFromInline
final class EntityFaulter<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The entities of a batch of ids (an id without an entity is left out; each once) and the
    /// rows read; `nil` on failure.
    @usableFromInline let read: ([Entity.ID]) -> (entities: [(Entity.ID, Entity)], rows: [EntityRecord])?
    /// Every entity of the type, in storage's id order, and the rows; `nil` on failure.
    @usableFromInline let readAll: () -> (entities: [(Entity.ID, Entity)], rows: [EntityRecord])?
    /// One per to-one relation `Entity` stores in its rows: puts the links of the rows read
    /// (for the ids asked about, `nil` for all of the type) in the table's link table.
    @usableFromInline var rowLinks: [(EntityTable<Entity>, [Entity.ID]?, [EntityRecord]) -> Void] = []
    /// Whether reading entities places their rows' to-one links (``rowLinks``) on the way. Not
    /// over a store's row cache that keeps rows: there a link table asked later reads the same
    /// rows from the cache, and a query pays only for the relations it asks for.
    @usableFromInline var placesRowLinks = true
    /// How many entities of the type are stored, counted without reading them; `nil` on failure.
    @usableFromInline var count: () -> Int? = { nil }
    /// The rows of a batch of ids, not decoded (their to-one links are what is wanted); `nil` on
    /// failure.
    @usableFromInline var rows: ([Entity.ID]) -> [EntityRecord]? = { _ in nil }

    @usableFromInline
    init(
        read: @escaping ([Entity.ID]) -> (entities: [(Entity.ID, Entity)], rows: [EntityRecord])?,
        readAll: @escaping () -> (entities: [(Entity.ID, Entity)], rows: [EntityRecord])?
    ) {
        self.read = read
        self.readAll = readAll
    }
}
