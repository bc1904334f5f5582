/// What storage counted of a type's rows that pass a query's ``ColumnFilter``s (see
/// ``ColumnFilteringReader/countEntities(of:matching:)``).
@usableFromInline
package struct ColumnCount: Sendable {
    /// The rows whose columns pass every filter.
    @usableFromInline package var count: Int
    /// The rows holding an entity that storage could not test: a filter's column is NULL in them
    /// (the value is in the payload, or the row is not upgraded yet).
    @usableFromInline package var untested: [EntityRecord]

    package init(count: Int, untested: [EntityRecord]) {
        self.count = count
        self.untested = untested
    }
}
