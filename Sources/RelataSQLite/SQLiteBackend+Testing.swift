extension SQLiteBackend {
    /// How many rows this backend's reads have returned since it opened: a diagnostic for tests
    /// (a page of a list reads the page, not the list) and benchmarks.
    package var rowsReadCount: Int { rowsRead.count }

    /// How many statements reading rows of the typed tables (entities, links, their counts and
    /// tails) this backend has run since it opened: a diagnostic for tests.
    package var rowReadCount: Int { rowReads.count }

    /// How many rows of full-text tables this backend's searches have read since it opened: a
    /// diagnostic for tests (a search reads each row once).
    package var fullTextRowsReadCount: Int { fullTextRowsRead.count }

    /// How many times this backend's transactions have read the catalog of tables: a
    /// diagnostic for tests (a write that knows the catalog current does not read it).
    package var catalogReadCount: Int { catalogReads.count }

    /// How many times this backend's transactions have read records of the change log: a
    /// diagnostic for tests (a store's catch-up reads them once).
    package var logReadCount: Int { logReads.count }

    /// How many WAL checkpoints have run beside this backend's writes (see `WALCheckpointer`): a
    /// diagnostic for tests.
    package var backgroundCheckpointCount: Int { checkpointer.completed.count }
}

extension SQLiteSchema {
    /// How many batches the upgrade to property columns runs before it stops as if the process
    /// had been stopped there (`nil`: all of them): lets tests interrupt an upgrade and resume it.
    @TaskLocal package static var upgradeBatchesBeforeStop: Int?
}
