/// What ``ColumnFilteringReader/fetchFirstIDs(of:matching:orderedBy:count:skipping:)`` finds: the
/// ids of a query's first rows, whose rows are then read by id — through the row cache, which
/// answers those it holds, so a page read again reads no row.
package struct FirstEntityIDs: Sendable {
    /// The ids in order (from the place after ``skipped``), then those of the rows SQL could not
    /// test or order (``loose`` of them), as ``FirstEntityRows/records``.
    package var ids: [String]
    /// How many of ``ids``, at the end, are of rows SQL could not test or order.
    package var loose: Int
    /// As ``FirstEntityRows/skipped``.
    package var skipped: Int

    package init(ids: [String], loose: Int, skipped: Int) {
        self.ids = ids
        self.loose = loose
        self.skipped = skipped
    }

    /// The rows of ``ids`` as ``FirstEntityRows``, in the same order, read by `fetch` (in any
    /// order); an id without a row is left out.
    package func rows(of type: String, _ fetch: ([EntityKey]) throws -> [EntityRecord]) rethrows -> FirstEntityRows {
        let read = try fetch(ids.map { EntityKey(type: type, id: $0) })
        // Most often in order already (a cache answering every key answers in the keys' order).
        if read.count == ids.count, zip(read, ids).allSatisfy({ $0.id == $1 }) {
            return FirstEntityRows(records: read, skipped: skipped, isExact: loose == 0)
        }
        let byID = Dictionary(read.map { ($0.id, $0) }) { row, _ in row }
        return FirstEntityRows(records: ids.compactMap { byID[$0] }, skipped: skipped, isExact: loose == 0)
    }
}
