import Relata

/// A transaction that hands every `StorageTransaction.persist(_:origin:)` to `persist` and
/// everything else to the transaction it wraps: for backends that wrap another one to inject
/// faults in tests (fail a write, drop one, record them).
///
/// ```swift
/// func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
///     try wrapped.write { transaction in
///         try body(InterceptedTransaction(transaction) { changes, origin in
///             if shouldFail { throw MyError() }
///             return try transaction.persist(changes, origin: origin)
///         })
///     }
/// }
/// ```
public struct InterceptedTransaction: StorageTransaction {
    let wrapped: any StorageReader
    let intercept: (StoreChanges, String) throws -> Int64

    /// Wraps `transaction` (or a reader, for a wrapper that pretends to write); `persist` runs
    /// instead of its `persist`.
    public init(_ transaction: any StorageReader, persist: @escaping (StoreChanges, String) throws -> Int64) {
        wrapped = transaction
        intercept = persist
    }

    /// Loads through the wrapped transaction.
    public func load(
        entities entity: (EntityRecord) throws -> Void, links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws -> Int64 {
        try wrapped.load(entities: entity, links: link, dynamicLinks: dynamicLink)
    }

    /// Fetches through the wrapped transaction.
    public func fetchEntities(_ keys: [EntityKey]) throws -> [EntityRecord] {
        try wrapped.fetchEntities(keys)
    }

    /// Fetches through the wrapped transaction.
    public func fetchLinks(of sources: [LinkSourceKey]) throws -> [LinkRecord] {
        try wrapped.fetchLinks(of: sources)
    }

    /// Fetches through the wrapped transaction.
    public func fetchSources(of targets: [LinkTargetKey]) throws -> [LinkRecord] {
        try wrapped.fetchSources(of: targets)
    }

    /// Counts through the wrapped transaction.
    public func fetchSourceCounts(of targets: [LinkTargetKey]) throws -> [LinkTargetKey: Int] {
        try wrapped.fetchSourceCounts(of: targets)
    }

    /// Fetches through the wrapped transaction.
    public func fetchDynamicLinks(of ends: [EntityKey]) throws -> [DynamicLinkRecord] {
        try wrapped.fetchDynamicLinks(of: ends)
    }

    /// Asks the wrapped transaction.
    public func holdsDynamicLinks() throws -> Bool {
        try wrapped.holdsDynamicLinks()
    }

    /// Fetches through the wrapped transaction.
    public func fetchEntities(of type: String, after id: String?, limit: Int) throws -> [EntityRecord] {
        try wrapped.fetchEntities(of: type, after: id, limit: limit)
    }

    /// Fetches through the wrapped transaction.
    public func fetchLinks(of source: LinkSourceKey, page: ListPage) throws -> [LinkRecord] {
        try wrapped.fetchLinks(of: source, page: page)
    }

    /// Fetches through the wrapped transaction.
    public func fetchSources(of target: LinkTargetKey, page: ListPage) throws -> [LinkRecord] {
        try wrapped.fetchSources(of: target, page: page)
    }

    /// Counts through the wrapped transaction.
    public func fetchLinkCounts(of sources: [LinkSourceKey]) throws -> [LinkSourceKey: Int] {
        try wrapped.fetchLinkCounts(of: sources)
    }

    /// Counts through the wrapped transaction.
    public func fetchEntityCount(of type: String) throws -> Int {
        try wrapped.fetchEntityCount(of: type)
    }

    /// Fetches through the wrapped transaction.
    public func fetchDynamicLinks(_ links: [DynamicLinkRecord]) throws -> [DynamicLinkRecord] {
        try wrapped.fetchDynamicLinks(links)
    }

    /// Reads the log through the wrapped transaction.
    public func logBounds() throws -> ChangeLogBounds {
        try wrapped.logBounds()
    }

    /// Reads the log through the wrapped transaction.
    public func logEntries(after sequence: Int64) throws -> [ChangeLogEntry] {
        try wrapped.logEntries(after: sequence)
    }

    /// Runs the `persist` closure given at ``init(_:persist:)`` instead of the wrapped persist.
    public func persist(_ changes: StoreChanges, record: ChangeLogRecord, origin: String) throws -> Int64 {
        try intercept(changes, origin)
    }
}
