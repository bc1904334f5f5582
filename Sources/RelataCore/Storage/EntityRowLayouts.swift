import Synchronization

/// The ``EntityRowLayout``s a backend worked out, kept per statement: a layout depends only on
/// the entity type and the statement's column names (the catalog's numbers never change
/// meaning), and working it out again at every read was a tenth of a read by value.
package final class EntityRowLayouts: Sendable {
    private struct Key: Hashable {
        let type: String
        let sql: String
    }

    private let layouts = Mutex<[Key: (names: [String], layout: EntityRowLayout)]>([:])

    package init() {}

    /// The layout of `type`'s rows as `sql` returns them, with columns `names`: the one kept when
    /// its columns were the same, or `make()`'s, kept.
    package func layout(of type: String, sql: String, columnNames names: [String], _ make: () throws -> EntityRowLayout) rethrows -> EntityRowLayout {
        let key = Key(type: type, sql: sql)
        if let kept = layouts.withLock({ $0[key] }), kept.names == names { return kept.layout }
        let layout = try make()
        layouts.withLock { layouts in
            // Bounded: statements are few, but SQL with a list of values in it is not.
            if layouts.count >= 512 { layouts.removeAll() }
            layouts[key] = (names, layout)
        }
        return layout
    }
}
