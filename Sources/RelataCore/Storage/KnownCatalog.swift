/// A backend's catalog of typed tables as it last knew it, and the commit it is known current as
/// of (`nil`: not known). Typed tables are never dropped, so the catalog is never wrong, only
/// short of tables other connections made since; tables are made only by commits, each with a
/// log record, so a transaction that sees the commit ``asOf`` knows the catalog current
/// (``TableSession/isCurrent``).
package struct KnownCatalog: Sendable {
    package var catalog: TableCatalog
    package var asOf: Int64?

    /// A catalog known current as of `asOf`, if not `nil`.
    package init(_ catalog: TableCatalog = TableCatalog(), asOf: Int64? = nil) {
        self.catalog = catalog
        self.asOf = asOf
    }

    /// Keeps what a transaction left (``TableSession/known``): as of the newest commit it is
    /// known current at, or, not known current, if it knows more tables than the one kept.
    package mutating func keep(_ other: KnownCatalog) {
        if let asOf = other.asOf, asOf >= self.asOf ?? 0 {
            self = other
        } else if other.catalog.entries.count > catalog.entries.count {
            self = KnownCatalog(other.catalog)
        }
    }
}
