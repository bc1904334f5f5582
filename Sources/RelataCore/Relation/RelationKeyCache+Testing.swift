extension RelationKeyCache {
    /// The number of key paths remembered (tests: the cache stays bounded).
    package static var count: Int { entries.withLock { $0.count } }
}
