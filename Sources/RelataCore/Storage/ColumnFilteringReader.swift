/// A reader that tests property columns in storage (SQLite, PostgreSQL): the rows of a type that
/// pass a query's ``ColumnFilter``s are found there, not by reading the whole type.
package protocol ColumnFilteringReader: StorageReader {
    /// What ``StorageReader/fetchEntities(of:after:limit:)`` returns, of the rows that pass
    /// `filters` (and possibly others: the filters are a prefilter).
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord]

    /// The first `count` rows of `type` that pass `filters` exactly, in `order` (then by id), after
    /// the first `skipping` of them, and every row whose column for a filter or a key is NULL or
    /// whose text key is not ASCII (it is tested and ordered in Swift). When such rows come,
    /// none is skipped: the first `skipping + count` come, for Swift to place those among them.
    /// `nil` when storage cannot order by these keys (a key without a single column of a kind
    /// SQL orders, a filter without a column).
    func fetchFirstEntities(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityRows?

    /// The ids of the rows ``fetchFirstEntities(of:matching:orderedBy:count:skipping:)`` gives,
    /// in its order, without their rows; `nil` when storage cannot order by these keys, or
    /// pages whole rows only (the default).
    func fetchFirstIDs(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityIDs?

    /// How many rows of `type` pass `filters` exactly, counted in storage (through the filters'
    /// indexes where there are some), and the rows it could not test: those holding an entity
    /// whose column for a filter is NULL (the value may be in the payload: tested in Swift);
    /// `nil` when a filter has no column (its values are all in payloads).
    func countEntities(of type: String, matching filters: [ColumnFilter]) throws -> ColumnCount?

    /// What the full-text table of `type`'s `properties` holds for `tokens` (distinct trigrams):
    /// with `containing` empty, its statistics (no rows); otherwise the rows holding any of the
    /// tokens at the places `containing` and none of those at the places `excluding` (the rows
    /// a search read already), and no statistics (zeros: a search reads them once, first, then
    /// rows trigram by trigram); `nil` when storage has no such table (the search then runs in
    /// Swift over the type's entities).
    func fetchFullText(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates?
}

extension ColumnFilteringReader {
    /// Pages whole rows only.
    package func fetchFirstIDs(
        of type: String, matching filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int
    ) throws -> FirstEntityIDs? {
        nil
    }
}

extension StorageReader {
    /// A page of `type`'s rows that pass `filters` where the reader tests columns, else a page of
    /// all of them (which passes a prefilter too).
    @usableFromInline
    package func fetchEntities(of type: String, prefiltered filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord] {
        if !filters.isEmpty, let filtering = self as? any ColumnFilteringReader {
            return try filtering.fetchEntities(of: type, matching: filters, after: id, limit: limit)
        }
        return try fetchEntities(of: type, after: id, limit: limit)
    }

    /// ``ColumnFilteringReader/fetchFirstEntities(of:matching:orderedBy:count:skipping:)`` where
    /// the reader tests columns; `nil` otherwise.
    @usableFromInline
    package func fetchFirstEntities(
        of type: String, prefiltered filters: [ColumnFilter], orderedBy order: [ColumnOrder], count: Int, skipping: Int = 0
    ) throws -> FirstEntityRows? {
        guard let filtering = self as? any ColumnFilteringReader else { return nil }
        return try filtering.fetchFirstEntities(of: type, matching: filters, orderedBy: order, count: count, skipping: skipping)
    }
}

extension StorageReader {
    /// ``ColumnFilteringReader/countEntities(of:matching:)`` where the reader tests columns;
    /// `nil` otherwise.
    @usableFromInline
    package func countEntities(of type: String, prefiltered filters: [ColumnFilter]) throws -> ColumnCount? {
        guard let filtering = self as? any ColumnFilteringReader else { return nil }
        return try filtering.countEntities(of: type, matching: filters)
    }

    /// ``ColumnFilteringReader/fetchFullText(of:properties:tokens:containing:excluding:)`` where the
    /// reader tests columns; `nil` otherwise.
    @usableFromInline
    package func fetchFullTextCandidates(of type: String, properties: [String], tokens: [String], containing: [Int], excluding: [Int]) throws -> FullTextCandidates? {
        guard let filtering = self as? any ColumnFilteringReader else { return nil }
        return try filtering.fetchFullText(of: type, properties: properties, tokens: tokens, containing: containing, excluding: excluding)
    }
}
