import Synchronization

/// The relation keys of key paths already looked up, by key path identity.
///
/// `_relataRelationKey(_:)` compares the key path with each relation's in turn, and key path
/// equality walks both paths' components: every `with`, `id`, `related` and `count` paid it. A key
/// path written as a literal is one object for the life of the process, so its identity is a
/// cheap key. The cache keeps each key path alive, so its address is never reused by another,
/// and empties itself past `limit` entries (key paths built at run time are new objects each
/// time).
@usableFromInline
enum RelationKeyCache {
    static let limit = 1_024
    static let entries = Mutex<[ObjectIdentifier: Entry]>([:])

    /// A key path and its relation key. Key paths are immutable, so sharing one is safe.
    struct Entry: @unchecked Sendable {
        let keyPath: AnyKeyPath
        let key: _AnyRelationKey
    }

    /// The key of `keyPath`, computed by `lookup` the first time.
    @usableFromInline
    static func key(for keyPath: AnyKeyPath, _ lookup: () -> _AnyRelationKey) -> _AnyRelationKey {
        let id = ObjectIdentifier(keyPath)
        if let cached = entries.withLock({ $0[id]?.key }) { return cached }
        let key = lookup()
        entries.withLock { entries in
            if entries.count >= limit { entries.removeAll(keepingCapacity: true) }
            entries[id] = Entry(keyPath: keyPath, key: key)
        }
        return key
    }
}
