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
    /// The sequence the base answers as of, or `nil` for the newest commit at each read (or, in
    /// a session not bound yet, until its first read binds it).
    package var sequence: Int64? {
        snapshot.withLock { $0.sequence }
    }
    /// The snapshot: fixed at `init`, or bound by a session's first read (see ``session()``).
    private let snapshot: Mutex<Snapshot>

    private enum Snapshot {
        /// The newest commit at each read.
        case newest
        /// Not bound yet: the first read binds it to a commit at or after `floor`.
        case unbound(floor: Int64)
        /// As of `sequence`; `changes` are what commits after it touched, as far as reads saw them.
        case at(Int64, SharedSnapshotChanges)

        var sequence: Int64? {
            if case .at(let sequence, _) = self { sequence } else { nil }
        }
    }

    private let firstFailure = Mutex<(any Error)?>(nil)
    /// Whether storage held any dynamic relationship as of the snapshot, once a read learned it
    /// (see ``mayHoldDynamicLinks()``).
    private let dynamicLinksHeld = Mutex<Bool?>(nil)

    /// The lock of the tables the contexts over this base share (see ``TableLock``).
    @usableFromInline package let tableLock = TableLock()

    /// The rows shared with other bases of the same store, if any.
    @usableFromInline package let cache: RowCache?
    /// Whether ``cache`` keeps rows (a store opened with `cacheLimit: 0` keeps none: what it
    /// reads is read again when asked again).
    @usableFromInline var cacheKeepsRows: Bool { (cache?.limit ?? 0) > 0 }

    /// Whether an entity type of the schema can reach a `.deny` relation through cascades: only
    /// then can a dynamically owned entity make an erasure deny (see `hasDynamicDenyRisk`).
    @usableFromInline let schemaReachesDeny: Bool
    /// Whether a Store write batches the reads of its lists' tails (see
    /// ``StorageBackend/readsCostRoundTrips``).
    @usableFromInline let batchesTails: Bool
    /// Whether a query reads a relation's links with their targets' rows in one statement (see
    /// ``StorageReader/fetchSourcesAndRows(of:)``): where reads are round trips. Over SQLite two
    /// statements cost less than the rows the context or the cache holds already, read again.
    @usableFromInline let joinsLinkedRows: Bool

    private static func reachesDeny(_ schema: EntitySchema) -> Bool {
        func reaches<Entity: EntityModelProtocol>(_ type: Entity.Type) -> Bool { DenyRules.reachable(from: type) }
        return schema.types.values.contains { reaches($0) }
    }

    /// A base reading `backend`, its rows typed through `schema`: as of `sequence` (reads of rows
    /// changed since fail), or of the newest commit at each read when `nil`; through `cache`.
    package init(backend: any StorageBackend, schema: EntitySchema, sequence: Int64? = nil, cache: RowCache? = nil) {
        self.backend = backend
        self.schema = schema
        self.cache = cache
        schemaReachesDeny = Self.reachesDeny(schema)
        batchesTails = backend.readsCostRoundTrips
        joinsLinkedRows = backend.readsCostRoundTrips
        snapshot = Mutex(sequence.map { .at($0, SharedSnapshotChanges(SnapshotChanges(sequence: $0))) } ?? .newest)
    }

    private init(session other: ContextBase, snapshot: Snapshot) {
        backend = other.backend
        schema = other.schema
        cache = other.cache
        schemaReachesDeny = other.schemaReachesDeny
        batchesTails = other.batchesTails
        joinsLinkedRows = other.joinsLinkedRows
        self.snapshot = Mutex(snapshot)
    }

    /// A base for one more context of the store whose snapshot this base is: its snapshot is
    /// bound by its first read, to the commit that read sees (at or after this base's), so that a
    /// context taken just before another commit reads that commit rather than refusing what it
    /// touched; it then answers as of that commit. It shares the cache and keeps its own
    /// ``failure`` — a failed read of one context is not another's.
    ///
    /// - Parameter pinned: Whether the session answers as of this base's snapshot exactly (an
    ///   observer evaluated for the commits up to it), rather than binding at its first read.
    package func session(pinned: Bool = false) -> ContextBase {
        let snapshot = snapshot.withLock { $0 }
        return switch snapshot {
        case .at(let sequence, _): ContextBase(session: self, snapshot: pinned ? snapshot : .unbound(floor: sequence))
        case .unbound, .newest: ContextBase(session: self, snapshot: snapshot)
        }
    }

    /// A base for one more context of the store whose snapshot this base is, answering as of
    /// `sequence` exactly: the commit (at or after this base's) that the rows it starts from were
    /// read at (see `PlacedRows`). It shares the cache and keeps its own ``failure``.
    package func session(at sequence: Int64) -> ContextBase {
        ContextBase(session: self, snapshot: .at(sequence, SharedSnapshotChanges(SnapshotChanges(sequence: sequence))))
    }

    /// The snapshot's sequence, bound to `candidate` (a commit a read sees) if not bound yet;
    /// `nil` for a base that reads the newest commit.
    private func bind(to candidate: Int64) -> (sequence: Int64, changes: SharedSnapshotChanges)? {
        snapshot.withLock { snapshot in
            switch snapshot {
            case .newest: return nil
            case .at(let sequence, let changes): return (sequence, changes)
            case .unbound:
                let changes = SharedSnapshotChanges(SnapshotChanges(sequence: candidate))
                snapshot = .at(candidate, changes)
                return (candidate, changes)
            }
        }
    }

    /// The sequence a cache-only read answers as of: the snapshot's, when the cache is as of it
    /// (`bound`), or, in an unbound session, the cache's if it is at or after the session's floor
    /// (the session binds to it once a read is answered from the cache: ``bindAfterHit(_:)``);
    /// else `nil`. One lock of the snapshot: a bound session, the common case, needs no other.
    private func cacheSequence(_ cache: RowCache) -> (sequence: Int64, bound: Bool)? {
        switch snapshot.withLock({ $0 }) {
        case .newest: return nil
        case .at(let sequence, _): return sequence == cache.sequence ? (sequence, true) : nil
        case .unbound(let floor):
            // A new context answers as of storage's newest commit: from the cache only when it is
            // that commit (the backend says nothing was committed since the store learned it).
            guard let current = newestInCache(), current >= floor else { return nil }
            return (current, false)
        }
    }

    /// The cache's sequence when it is storage's newest commit, learned without a transaction
    /// (see ``StorageBackend/commitToken()``); `nil` when the backend cannot tell, or a commit
    /// was made since the store last learned the newest.
    package func newestInCache() -> Int64? {
        guard let cache, let token = try? backend.commitToken() else { return nil }
        return cache.sequenceIfNewest(token: token)
    }

    /// Storage's newest commit, read in a read transaction of its own (one round trip on
    /// PostgreSQL); `nil` when storage cannot be read.
    package func newestCommit() -> Int64? {
        try? backend.read { try $0.logBounds().last }
    }

    /// Runs `body` in a read transaction of the backend, read as this base reads (see
    /// ``layered(_:)``); the cache learns the newest commit from it.
    private func transaction<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        // Only a context's first read learns the newest commit (its later reads are bound to
        // one), with the commit token as of the transaction (read in it, not in one of its own).
        let isFirstRead = snapshot.withLock { if case .unbound = $0 { true } else { false } }
        return try backend.read { reader in
            let token = cache == nil || !isFirstRead ? nil : try? reader.commitToken()
            let (layered, newest) = try layered(reader)
            if let token, let cache, let newest { cache.noteNewest(newest, token: token) }
            return try body(layered)
        }
    }

    /// Binds an unbound session to `sequence`, the cache's, after a read the cache answered
    /// whole; `false` when the session was bound to another commit meanwhile.
    private func bindAfterHit(_ sequence: Int64) -> Bool {
        bind(to: sequence)?.sequence == sequence
    }

    /// `reader` as this base reads it in a transaction of its own: through the cache (brought up
    /// to the transaction's sequence first), then refusing rows changed since ``sequence``.
    /// - Returns: The reader, and the transaction's newest commit when the bounds were read.
    private func layered(_ reader: any StorageReader) throws -> (any StorageReader, Int64?) {
        let isNewest = snapshot.withLock { if case .newest = $0 { true } else { false } }
        guard cache != nil || !isNewest else { return (TransactionReader(reader), nil) }
        // The log's bounds, read once for both.
        let bounds = try reader.logBounds()
        let read = try cache.map { TransactionReader(reader, cache: $0, at: try $0.advance(reading: reader, bounds: bounds)) } ?? TransactionReader(reader)
        return (try validating(read, bounds: bounds), bounds.last)
    }

    /// Runs `body` on the cache alone when it is as of ``sequence``; `nil` when a row is missing.
    private func fromCache<T>(_ body: (any StorageReader) throws -> T) throws -> T? {
        guard let cache, let (sequence, bound) = cacheSequence(cache) else { return nil }
        do {
            let result = try body(TransactionReader.cacheOnly(cache, at: sequence))
            // Inside a resolve's probe, the probe binds once every read of it hit.
            if bound || Self.scope.cacheProbe?.base === self || bindAfterHit(sequence) { return result }
            return nil
        } catch is TransactionReader.Miss {
            return nil
        }
    }

    /// `reader`, or, in a base with a ``sequence`` that storage has moved past, a reader that
    /// refuses rows changed since. An unbound session binds to the commit `reader` sees.
    private func validating(_ reader: any StorageReader, bounds: ChangeLogBounds) throws -> any StorageReader {
        guard let (_, shared) = bind(to: bounds.last) else { return reader }
        let known = try shared.value.withLock { changes -> SnapshotChanges in
            try changes.advance(reading: reader, bounds: bounds)
            return changes
        }
        return known.isUnchanged ? reader : SnapshotReader(reader: reader, changes: known)
    }

    /// Runs `body` with every read of this base going through `reader` — a transaction the caller
    /// holds open, such as a store's write transaction (which holds the write lock, so it reads
    /// the newest state and nothing is validated). `cachedAt`: the base's cache answers what it
    /// holds, as of that sequence (the transaction's, which the cache was brought up to).
    package func reading<T>(through reader: any StorageReader, cachedAt sequence: Int64? = nil, _ body: () throws -> T) rethrows -> T {
        let read: TransactionReader
        if let cache, let sequence { read = TransactionReader(reader, cache: cache, at: sequence) } else { read = TransactionReader(reader) }
        return try tableLock.withLock {
            try Self.$scope.withValue(Self.scope.reading(ReaderBox(base: self, reader: read))) { try body() }
        }
    }

    /// The first read that failed, if any.
    package var failure: (any Error)? { firstFailure.withLock { $0 } }

    /// Whether storage may hold a dynamic relationship as of this base's snapshot: `false` once
    /// a read of it found none, so that a context need not ask for the dynamic relationships of
    /// each entity it erases (those it makes itself it holds). Learned once per snapshot, in a
    /// transaction held open (a write's, or a resolve's) — never by opening one, nor by a read
    /// the cache alone answers; a base reading the newest commit at each read asks each time.
    @usableFromInline
    func mayHoldDynamicLinks() -> Bool {
        if let known = dynamicLinksHeld.withLock({ $0 }) { return known }
        guard Self.scope.current?.base === self, let held = read(cached: false, { try $0.holdsDynamicLinks() }) else { return true }
        // Bound by that read (or before it): the answer is as of the snapshot for good.
        if sequence != nil { dynamicLinksHeld.withLock { $0 = held } }
        return held
    }

    /// How this task reads through bases now: one task-local, read once per read.
    private struct Scope: Sendable {
        /// Set while ``ifHoldingEverything(_:)`` runs.
        var probe: ProbeBox?
        /// Set while ``reading(probingCache:_:)`` tries the cache alone.
        var cacheProbe: ProbeBox?
        /// The reader of the transaction ``reading(through:_:)`` or ``reading(probingCache:_:)``
        /// holds open on this thread.
        var current: ReaderBox?

        func probing(_ probe: ProbeBox) -> Scope {
            var scope = self
            scope.probe = probe
            return scope
        }

        func probingCache(_ probe: ProbeBox) -> Scope {
            var scope = self
            scope.cacheProbe = probe
            return scope
        }

        func reading(_ reader: ReaderBox) -> Scope {
            var scope = self
            scope.current = reader
            return scope
        }
    }

    @TaskLocal private static var scope = Scope()

    /// The base whose plan is resolving on this task, once its prefetch read every level (see
    /// ``resolvingPlanned(_:)``).
    @TaskLocal private static var planned: ObjectIdentifier?

    /// Runs `resolve`, the resolve of a plan whose prefetch read what every level below it reads:
    /// the nested plans it makes over this base resolve at once, without probing again whether
    /// everything is held (they are; what is not, their resolve reads as it faults).
    @usableFromInline
    func resolvingPlanned<T>(_ resolve: () -> T) -> T {
        Self.$planned.withValue(ObjectIdentifier(self)) { resolve() }
    }

    /// Whether this task is resolving a plan of this base (see ``resolvingPlanned(_:)``).
    @usableFromInline
    var isResolvingPlanned: Bool { Self.planned == ObjectIdentifier(self) }

    /// Runs `body` in a read transaction (the one ``reading(_:)`` holds, if any); a failure is
    /// kept in ``failure`` and gives `nil`. `cached`: the row cache may answer `body` alone
    /// (its reads are of entities by id and of lists); `false` for reads only storage answers
    /// (by value, counts, pages of the type), which skip trying it.
    @usableFromInline
    func read<T>(cached: Bool = true, _ body: (any StorageReader) throws -> T) -> T? {
        let scope = Self.scope
        if let probe = scope.probe, probe.base === self {
            probe.missing = true
            return nil
        }
        if let probe = scope.cacheProbe, probe.base === self {
            // Answered from the cache alone; a miss is left for the transaction that follows —
            // which runs the whole body again: after the first miss, the probe asks no more.
            if probe.missing { return nil }
            guard cached else {
                probe.missing = true
                return nil
            }
            do {
                if let cached = try fromCache(body) {
                    probe.hit = true
                    return cached
                }
            } catch {
                firstFailure.withLock { if $0 == nil { $0 = error } }
                return nil
            }
            probe.missing = true
            return nil
        }
        do {
            if let current = scope.current, current.base === self { return try body(current.reader) }
            if cached, let hit = try fromCache(body) { return hit }
            return try transaction(body)
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
            return nil
        }
    }

    /// Tells the transaction this base reads through now (a write's) the reads that follow (see
    /// ``StorageReader/prefetch(_:)``); nothing outside one.
    func prefetch(_ reads: PlannedReads) {
        guard !reads.isEmpty, let current = Self.scope.current, current.base === self else { return }
        current.reader.prefetch(reads)
    }

    /// Runs `body` with one read transaction open for every read it makes of this base (a
    /// resolve reads its levels in one transaction: one state, and no transaction per batch).
    /// `probingCache`: `body` runs first against the cache alone, and again in a transaction only
    /// when the cache missed a read — for reads the cache may answer whole (not a search's).
    @usableFromInline
    func reading<T>(probingCache: Bool = true, _ body: () -> T) -> T {
        let scope = Self.scope
        if let current = scope.current, current.base === self { return body() }
        // A cache as of the snapshot answers what it holds without a transaction; what it misses
        // is read by running `body` again in one (what the first run placed is held by then).
        if probingCache, let cache, let (sequence, bound) = cacheSequence(cache) {
            let probe = ProbeBox(base: self)
            let result = Self.$scope.withValue(scope.probingCache(probe)) { body() }
            if !probe.missing, bound || bindAfterHit(sequence) { return result }
            // What the cache answered is placed, as of its sequence: the reads that follow
            // answer as of it too (or refuse what changed since), never as of a newer commit.
            if probe.hit { _ = bind(to: sequence) }
        }
        var result: T?
        do {
            try transaction { reader in
                Self.$scope.withValue(scope.reading(ReaderBox(base: self, reader: reader))) { result = body() }
            }
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
        }
        return result ?? body()
    }

    /// What `body` gives when everything it reads is held already, or `nil`: it runs with every
    /// read from this base answered "not read" (nothing is fetched, nothing is noted as held), so
    /// a resolve whose data is all here opens no transaction and walks its levels once.
    @usableFromInline
    func ifHoldingEverything<T>(_ body: () -> T) -> T? {
        let probe = ProbeBox(base: self)
        let result = Self.$scope.withValue(Self.scope.probing(probe)) { body() }
        return probe.missing ? nil : result
    }

    /// Whether this task runs ``ifHoldingEverything(_:)`` for this base: its reads are answered
    /// "not read", so a nested plan reads nothing either (it resolves with what is held).
    @usableFromInline
    var isProbing: Bool { Self.scope.probe?.base === self }


    private final class ProbeBox: @unchecked Sendable {
        let base: ContextBase
        var missing = false
        /// Whether some read was answered (and placed) from the cache.
        var hit = false

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

/// What the bases of one snapshot learned about the commits after it, shared between them.
private final class SharedSnapshotChanges: Sendable {
    let value: Mutex<SnapshotChanges>

    init(_ changes: SnapshotChanges) {
        value = Mutex(changes)
    }
}
