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
}
