/// The statements of a first-rows query (see `SQLiteTransaction.fetchFirstIDs`), built once per
/// shape and kept by ``SQLiteQueryPlans``. Their parameters are each filter's value in order
/// (`?1`…`?n`), then what each statement says.
struct FirstRowsQuery: Sendable {
    let table: String
    /// The ids of the page in order, then those of every row SQL cannot order (marked 1 in the
    /// second column); the count and the number to skip follow the filters' values.
    let page: String
    /// The ids of the rows SQL orders, in order, as many as skipped: the number to skip follows
    /// the filters' values.
    let skipped: String
    /// The same as `page` in one scan, where two would read the same rows: see
    /// `SQLiteTransaction.fetchFirstIDs(_:oneScan:count:skipping:)`.
    let oneScan: OneScan?

    struct OneScan: Sendable {
        /// The table and keys: what ``SQLiteBackend/manyLooseRows`` remembers.
        let shape: String
        /// The ids of the rows passing the filters, marked 0 when SQL orders them, 1 when not
        /// (those first, the window's limit following the filters' values), then 2 for the rows
        /// the driver's column leaves NULL.
        let sql: String
    }
}
