// Test seams: what a store keeps of its last read's placed tables.

extension PlacedRows {
    /// How many ids and link sources the kept tables hold, and their commit; `nil` when none.
    package var kept: (rows: Int, sequence: Int64)? {
        placed.withLock { $0.map { ($0.rowCount, $0.sequence) } }
    }
}

extension Store {
    /// What the store keeps of its last read's placed tables (see `PlacedRows`).
    package var placedRows: (rows: Int, sequence: Int64)? {
        writer.published.placed.kept
    }
}
