import RelataCore
import Synchronization

/// The SQL of the queries of entity rows by value (``SQLiteTransaction``'s filtered pages and
/// first rows in order) a backend built, kept by their shape: building it — the catalog's
/// columns looked up, the tests and the conditions of the rows SQL cannot order joined — was a
/// seventh of a warm query of the first rows in order (W3's Q4).
///
/// A shape is all the SQL depends on except the values, which are bound apart: the kind of
/// query, the type, the catalog (by its next number: a catalog only gains entries, and a number
/// never changes meaning in a file), each filter's property, test and kind of value, and the
/// columns the type's indexes lead with (which decide the filter an index search starts from).
final class SQLiteQueryPlans: Sendable {
    /// What the SQL of a query depends on, its values left out.
    struct Shape: Hashable {
        enum Kind: Hashable {
            /// A page of the rows passing filters, in id order (after a last id, or from the first).
            case page(after: Bool)
            /// The first rows passing filters in an order.
            case firstRows([ColumnOrder])
        }

        /// A filter without its value.
        struct Filter: Hashable {
            let column: String
            let test: ColumnFilter.Test
            let kind: PropertyColumnKind
        }

        let kind: Kind
        let type: String
        let catalog: Int64
        let filters: [Filter]
        let indexed: Set<String>

        init(_ kind: Kind, type: String, catalog: TableCatalog, filters: [ColumnFilter], indexed: Set<String>) {
            self.kind = kind
            self.type = type
            self.catalog = catalog.nextNumber
            self.filters = filters.map { Filter(column: $0.column, test: $0.test, kind: $0.value.kind) }
            self.indexed = indexed
        }
    }

    /// A filtered page's SQL, and which filters bind their values to it, in order (after the
    /// last id, and before the limit).
    struct Page: Sendable {
        let sql: String
        let bound: [Int]
    }

    private let pages = Mutex<[Shape: Page]>([:])
    private let firstRows = Mutex<[Shape: FirstRowsQuery]>([:])

    /// The most shapes of each kind kept: queries are few, but a program could build many
    /// shapes (every property of a type filtered in every combination).
    static let limit = 256

    /// How many shapes are kept, pages and first rows.
    var count: Int {
        pages.withLock { $0.count } + firstRows.withLock { $0.count }
    }

    /// The page of `shape`: the one kept, or `make()`'s, kept.
    func page(_ shape: Shape, _ make: () throws -> Page) rethrows -> Page {
        try Self.kept(shape, in: pages, make)
    }

    /// The first-rows query of `shape` (its arguments not set): the one kept, or `make()`'s,
    /// kept; `nil` when `make` gives none (it is asked again next time).
    func firstRows(_ shape: Shape, _ make: () throws -> FirstRowsQuery?) rethrows -> FirstRowsQuery? {
        if let kept = firstRows.withLock({ $0[shape] }) { return kept }
        guard let made = try make() else { return nil }
        Self.keep(made, at: shape, in: firstRows)
        return made
    }

    private static func kept<Value: Sendable>(_ shape: Shape, in plans: borrowing Mutex<[Shape: Value]>, _ make: () throws -> Value) rethrows -> Value {
        if let kept = plans.withLock({ $0[shape] }) { return kept }
        let made = try make()
        keep(made, at: shape, in: plans)
        return made
    }

    private static func keep<Value: Sendable>(_ value: Value, at shape: Shape, in plans: borrowing Mutex<[Shape: Value]>) {
        plans.withLock { plans in
            if plans.count >= limit { plans.removeAll() }
            plans[shape] = value
        }
    }
}
