/// What ``ColumnFilteringReader/fetchFirstEntities(of:matching:orderedBy:count:skipping:)``
/// finds: the first rows of a type in a query's order.
@usableFromInline
package struct FirstEntityRows: Sendable {
    /// The rows in order (from the place after ``skipped``), then the rows SQL could not test or
    /// order (a column NULL, a text key not ASCII), for Swift to test and place.
    @usableFromInline package var records: [EntityRecord]
    /// How many rows in order come before ``records``, not sent: the rows asked to skip, or none
    /// when rows SQL could not order came (the caller then places them among all the first
    /// rows).
    @usableFromInline package var skipped: Int
    /// Whether every row of ``records`` passed the filters in SQL and is in order: no row came
    /// that SQL could not test or order. The records are then the answer itself.
    @usableFromInline package var isExact: Bool

    package init(records: [EntityRecord], skipped: Int, isExact: Bool) {
        self.records = records
        self.skipped = skipped
        self.isExact = isExact
    }
}
