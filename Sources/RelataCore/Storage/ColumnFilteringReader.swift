/// A reader that tests property columns in storage (SQLite, PostgreSQL): the rows of a type that
/// pass a query's ``ColumnFilter``s are found there, not by reading the whole type.
package protocol ColumnFilteringReader: StorageReader {
    /// What ``StorageReader/fetchEntities(of:after:limit:)`` returns, of the rows that pass
    /// `filters` (and possibly others: the filters are a prefilter).
    func fetchEntities(of type: String, matching filters: [ColumnFilter], after id: String?, limit: Int) throws -> [EntityRecord]
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
}
