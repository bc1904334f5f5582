import Synchronization

/// Values computed from key paths, remembered by key path identity.
///
/// Looking a key path up compares it with each of a type's in turn (`_relataRelationKey(_:)`,
/// `_relataColumnName(_:)`), and key path equality walks both paths' components; a sort by
/// `\.sentAt.desc` even builds a key path at run time to compare with. Every `with`, `id`,
/// `related`, `count`, filter and sort paid it. A key path written as a literal is one object for
/// the life of the process, so its identity is a cheap key. A cache keeps each key path alive,
/// so its address is never reused by another, and empties itself past `limit` entries (key paths
/// built at run time are new objects each time).
@usableFromInline
final class KeyPathCache<Value>: @unchecked Sendable {
    let limit: Int
    private let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// A key path and its value, both immutable once stored: safe to share.
    private struct Entry: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let value: Value
    }

    init(limit: Int = 1_024) { self.limit = limit }

    /// The value of `keyPath`, computed by `compute` the first time.
    @usableFromInline
    func value(for keyPath: AnyKeyPath, _ compute: () -> Value) -> Value {
        let id = ObjectIdentifier(keyPath)
        if let cached = entries.withLock({ $0[id]?.value }) { return cached }
        let value = compute()
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[id] = Entry(keyPath: keyPath, value: value)
        }
        return value
    }

    /// The number of key paths remembered (tests: the cache stays bounded).
    package var count: Int { entries.withLock { $0.count } }
}

/// The process's key path caches.
@usableFromInline
enum KeyPathCaches {
    /// The relation key of each key path to a projected relation (`\.$chat`).
    @usableFromInline static let relationKeys = KeyPathCache<_AnyRelationKey>()
    /// The column name of each key path to a stored property, or to its `.desc` (`nil`: none).
    @usableFromInline static let columnNames = KeyPathCache<String?>()
}

extension EntityModelProtocol {
    /// ``_relataColumnName(_:)`` of `keyPath`, remembered per key path object.
    @usableFromInline
    static func columnName(of keyPath: PartialKeyPath<Self>) -> String? {
        KeyPathCaches.columnNames.value(for: keyPath) { _relataColumnName(keyPath) }
    }
}
