/// How many entities a write adds to (or removes from) each entity table, by type: what
/// ``SQLiteRowWriter`` adds to `relata_count` once per table and write.
struct EntityCountChanges {
    private(set) var changes: [String: Int64] = [:]

    /// Counts `change` more entities (fewer, when negative) of `type`.
    mutating func add(_ change: Int64, to type: String) {
        changes[type, default: 0] += change
    }
}
