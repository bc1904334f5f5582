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

    /// Reads the commits after `sequence` through the wrapped transaction.
    public func changes(since sequence: Int64) throws -> CommittedChanges? {
        try wrapped.changes(since: sequence)
    }

    /// Runs the `persist` closure given at ``init(_:persist:)`` instead of the wrapped persist.
    public func persist(_ changes: StoreChanges, origin: String) throws -> Int64 {
        try intercept(changes, origin)
    }
}
