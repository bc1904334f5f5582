import Foundation
import Synchronization

/// What a context over storage reads what it does not hold from: a backend and the schema that
/// types its rows (see `Context.init(over:)`).
///
/// Each read the context makes is one read transaction of the backend (or the transaction
/// ``reading(through:_:)`` hands it, a store's write transaction). Without a ``sequence``, the
/// context answers as of the newest commit when it first reads a row, and keeps what it read. With
/// one (a store's snapshot), it answers as of that sequence: a read whose rows a later commit
/// touched fails (``SnapshotReader``) instead of mixing states. A read that fails — storage
/// unreachable, a row that does not decode, a stale snapshot — leaves the context without those
/// rows and is kept in ``failure``.
@usableFromInline
package final class ContextBase: Sendable {
    /// The storage read.
    package let backend: any StorageBackend
    /// The types of the rows.
    package let schema: EntitySchema
    /// The sequence the base answers as of, or `nil` for the newest commit at each read.
    package let sequence: Int64?
    /// What commits after ``sequence`` touched, as far as the reads so far saw them.
    private let changes: Mutex<SnapshotChanges>
    private let firstFailure = Mutex<(any Error)?>(nil)

    /// The rows shared with other bases of the same store, if any.
    package let cache: RowCache?

    /// A base reading `backend`, its rows typed through `schema`: as of `sequence` (reads of rows
    /// changed since fail), or of the newest commit at each read when `nil`; through `cache`.
    package init(backend: any StorageBackend, schema: EntitySchema, sequence: Int64? = nil, cache: RowCache? = nil) {
        self.backend = backend
        self.schema = schema
        self.sequence = sequence
        self.cache = cache
        changes = Mutex(SnapshotChanges(sequence: sequence ?? 0))
    }

    /// `reader` as this base reads it in a transaction of its own: through the cache (brought up
    /// to the transaction's sequence first), then refusing rows changed since ``sequence``.
    private func layered(_ reader: any StorageReader) throws -> any StorageReader {
        guard cache != nil || sequence != nil else { return reader }
        // The log's bounds, read once for both.
        let bounds = try reader.logBounds()
        var reader = reader
        if let cache { reader = CachingReader(reader, cache: cache, at: try cache.advance(reading: reader, bounds: bounds)) }
        return try validating(reader, bounds: bounds)
    }

    /// Runs `body` on the cache alone when it is as of ``sequence``; `nil` when a row is missing.
    private func fromCache<T>(_ body: (any StorageReader) throws -> T) throws -> T? {
        guard let cache, let sequence, cache.sequence == sequence else { return nil }
        do {
            return try body(CachingReader.cacheOnly(cache, at: sequence))
        } catch is CachingReader.Miss {
            return nil
        }
    }

    /// `reader`, or, in a base with a ``sequence`` that storage has moved past, a reader that
    /// refuses rows changed since.
    private func validating(_ reader: any StorageReader, bounds: ChangeLogBounds) throws -> any StorageReader {
        guard sequence != nil else { return reader }
        let known = try changes.withLock { changes -> SnapshotChanges in
            try changes.advance(reading: reader, bounds: bounds)
            return changes
        }
        return known.isUnchanged ? reader : SnapshotReader(reader: reader, changes: known)
    }

    /// Runs `body` with every read of this base going through `reader` — a transaction the caller
    /// holds open, such as a store's write transaction (which holds the write lock, so it reads
    /// the newest state and nothing is validated).
    package func reading<T>(through reader: any StorageReader, _ body: () throws -> T) rethrows -> T {
        try Self.$current.withValue(ReaderBox(base: self, reader: reader)) { try body() }
    }

    /// The first read that failed, if any.
    package var failure: (any Error)? { firstFailure.withLock { $0 } }

    /// The reader of the transaction ``reading(_:)`` holds open on this thread, if any.
    @TaskLocal private static var current: ReaderBox?

    /// Runs `body` in a read transaction (the one ``reading(_:)`` holds, if any); a failure is
    /// kept in ``failure`` and gives `nil`.
    @usableFromInline
    func read<T>(_ body: (any StorageReader) throws -> T) -> T? {
        if let probe = Self.probe, probe.base === self {
            probe.missing = true
            return nil
        }
        if let probe = Self.cacheProbe, probe.base === self {
            // Answered from the cache alone; a miss is left for the transaction that follows.
            do {
                if let cached = try fromCache(body) { return cached }
            } catch {
                firstFailure.withLock { if $0 == nil { $0 = error } }
                return nil
            }
            probe.missing = true
            return nil
        }
        do {
            if let current = Self.current, current.base === self { return try body(current.reader) }
            if let cached = try fromCache(body) { return cached }
            return try backend.read { try body(try layered($0)) }
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
            return nil
        }
    }

    /// Runs `body` with one read transaction open for every read it makes of this base (a
    /// resolve reads its levels in one transaction: one state, and no transaction per batch).
    @usableFromInline
    func reading<T>(_ body: () -> T) -> T {
        if let current = Self.current, current.base === self { return body() }
        // A cache as of the snapshot answers what it holds without a transaction; what it misses
        // is read by running `body` again in one (what the first run placed is held by then).
        if let cache, let sequence, cache.sequence == sequence {
            let probe = ProbeBox(base: self)
            let result = Self.$cacheProbe.withValue(probe) { body() }
            if !probe.missing { return result }
        }
        var result: T?
        do {
            try backend.read { reader in
                let reader = try layered(reader)
                Self.$current.withValue(ReaderBox(base: self, reader: reader)) { result = body() }
            }
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
        }
        return result ?? body()
    }

    /// Whether `reads` finds everything it asks for held already: it runs with every read from
    /// this base answered "not read" (nothing is fetched, nothing is noted as held), so a
    /// resolve whose data is all here opens no transaction.
    @usableFromInline
    func holdsEverything(_ reads: () -> Void) -> Bool {
        let probe = ProbeBox(base: self)
        Self.$probe.withValue(probe) { reads() }
        return !probe.missing
    }

    /// Set while ``holdsEverything(_:)`` runs on this thread.
    @TaskLocal private static var probe: ProbeBox?
    /// Set while ``reading(_:)`` tries the cache alone.
    @TaskLocal private static var cacheProbe: ProbeBox?

    private final class ProbeBox: @unchecked Sendable {
        let base: ContextBase
        var missing = false

        init(base: ContextBase) {
            self.base = base
        }
    }

    /// A reader handed to nested reads on the thread that opened it (never shared across threads).
    private final class ReaderBox: @unchecked Sendable {
        let base: ContextBase
        let reader: any StorageReader

        init(base: ContextBase, reader: any StorageReader) {
            self.base = base
            self.reader = reader
        }
    }
}
