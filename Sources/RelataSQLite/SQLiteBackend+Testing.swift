extension SQLiteBackend {
    /// How many rows this backend's reads have returned since it opened: a diagnostic for tests
    /// (a page of a list reads the page, not the list) and benchmarks.
    package var rowsReadCount: Int { rowsRead.count }
}
