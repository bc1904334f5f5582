import Dispatch
import Foundation
import Logging
import NIOCore
import PostgresNIO
import RelataCore
import Synchronization

/// A `StorageBackend` on a PostgreSQL database, shared by every process (on every machine) that
/// opens it — the same tables, change log and guarantees as the SQLite backend.
///
/// ```swift
/// let store = try await Store(postgres: "postgres://app@db.internal:5432/app", entities: User.self, Chat.self)
/// ```
///
/// A write takes `pg_advisory_xact_lock` (one key per schema) first in its transaction, catches up
/// from the change log, runs, then writes its rows (in a handful of statements: arrays bound and
/// expanded with `UNNEST`, however many rows) and one log record, and commits. Other processes'
/// commits are announced with `NOTIFY` (a hint carrying the sequence and the writer's origin, never data) on a dedicated
/// listening connection; a store also polls the log now and then, since notifications sent while
/// a listener is disconnected are lost. Credentials never appear in errors.
///
/// A store calls a backend on its writer queue only, one call at a time, so the backend keeps one
/// connection for reads and writes and one for listening.
public final class PostgresBackend: StorageBackend {
    /// How a backend connects and what it keeps.
    public struct Configuration: Sendable {
        /// The schema holding the tables (created on first open). Letters, digits and `_`.
        public var schema: String
        /// TLS for the connections; `.disable` by default (loopback and private networks).
        public var tls: PostgresConnection.Configuration.TLS
        /// How long a write waits for another writer's lock, and any statement (reads too) for a
        /// lock another client holds, before it throws `RelataError.Code.storeBusy`. At most
        /// about 24 days (PostgreSQL's bound; longer is taken as that).
        public var busyTimeout: Duration
        /// How long one statement may run before the server cancels it (the call then throws
        /// `RelataError.Code.storageFailed`): 5 minutes by default, so nothing waits for ever.
        public var statementTimeout: Duration
        /// Which change log records are kept (older ones are removed as commits are made).
        public var logRetention: LogRetention
        /// The most connections reads use at once (4 by default, at least 1); more reads wait
        /// for one, in turn. Idle ones stay open between reads.
        public var maxReaders: Int

        /// A configuration: schema `public`, no TLS, a 10 s busy timeout, the standard log
        /// retention (10,000 records of the last 10 minutes), a 5-minute statement timeout, at
        /// most 4 reader connections.
        public init(
            schema: String = "public", tls: PostgresConnection.Configuration.TLS = .disable, busyTimeout: Duration = .seconds(10),
            logRetention: LogRetention = .standard, statementTimeout: Duration = .seconds(300), maxReaders: Int = 4
        ) {
            self.maxReaders = max(1, maxReaders)
            self.statementTimeout = statementTimeout
            self.schema = schema
            self.tls = tls
            self.busyTimeout = busyTimeout
            self.logRetention = logRetention
        }
    }

    /// The connection for reads and writes (replaced when it was lost), and the listening one.
    private let connections = Mutex<(main: PostgresRestingConnection?, listener: PostgresConnection?)>((nil, nil))
    /// The connections reads run on (at most ``Configuration/maxReaders``): a read runs its
    /// `REPEATABLE READ` transaction on one of them, so it never waits for a write in progress
    /// (nor for another read), and never begins inside the write's transaction. A connection
    /// found closed is dropped.
    let readers: ConnectionPool<PostgresRestingConnection>
    /// How to connect again (credentials stay in here, never in messages).
    private let settings: PostgresConnection.Configuration
    let configuration: Configuration
    /// Where the server is, for errors: host, port and database, never the credentials.
    let place: String
    /// The tables, schema-qualified and quoted.
    let tables: PostgresSchema
    /// The typed tables as last read or made by a committed write, and the commit they are known
    /// current as of (see ``KnownCatalog``): a transaction that sees a later commit reads the
    /// catalog again before writing rows, or when it meets a name the catalog lacks.
    private let catalog = Mutex(KnownCatalog())
    /// The index declarations of each type this backend's writes last made the database match
    /// (see `PostgresIndexes`).
    let indexes = Mutex<[String: [StoredIndex]]>([:])
    let logger = Logger(label: "relata.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    /// Set when a notification arrived, or when the listener needs a poll to be sure.
    private let news = Atomic<Bool>(true)
    private let ticks = Atomic<Int>(0)
    let statements = StatementTally()

    /// How many statements this backend has sent and waited for since it opened; each is one
    /// round trip to the server (the statements that set up a connection are not counted, nor
    /// the `COMMIT` ending a read, which is sent without waiting for its answer).
    ///
    /// A diagnostic for benchmarks and tests: how many round trips a read or a write needed.
    public var statementCount: Int { statements.count }
    /// The origin of the store's own commits (the store names it when it persists).
    let ownOrigin = Mutex<String?>(nil)
    private let listenTask = Mutex<Task<Void, Never>?>(nil)

    /// A backend for the database at `url` (`postgres://user:password@host:port/database`). It
    /// connects on first use — the store's first read, on its writer queue — and creates the
    /// tables then when they do not exist.
    ///
    /// - Throws: `RelataError` when `url` or the schema name is malformed. Connection errors
    ///   (`RelataError.Code.storageFailed`, or `RelataError.Code.notAStore` for a schema of
    ///   another application or a newer format) come from the first use, naming host, port and
    ///   database but never the credentials.
    public static func connect(url: String, configuration: Configuration = Configuration()) async throws -> PostgresBackend {
        try open(url: url, configuration: configuration)
    }

    /// The same as ``connect(url:configuration:)``, for synchronous code: nothing here waits.
    public static func open(url: String, configuration: Configuration = Configuration()) throws -> PostgresBackend {
        let (settings, place) = try PostgresURL.parse(url, tls: configuration.tls)
        return PostgresBackend(settings: settings, configuration: configuration, place: place, tables: try PostgresSchema(schema: configuration.schema))
    }

    private init(settings: PostgresConnection.Configuration, configuration: Configuration, place: String, tables: PostgresSchema) {
        self.settings = settings
        self.configuration = configuration
        self.place = place
        self.tables = tables
        // The pool makes connections in the background through the backend, known once made.
        let owner = Owner()
        readers = ConnectionPool(
            limit: configuration.maxReaders, dispose: { Closing.close($0.connection) }, isUsable: { !$0.connection.isClosed },
            isSettled: { $0.isSettled },
            makeInBackground: {
                guard let backend = owner.backend else { throw PostgresBackend.closedError }
                return try backend.makeReaderConnection()
            },
            closedError: { PostgresBackend.closedError })
        owner.backend = self
        startListening()
    }

    /// Listens for the writers' notifications on the dedicated connection; when it is lost,
    /// connects again with backoff (100 ms, doubling, up to 5 s), and flags news each time,
    /// since what was sent meanwhile is lost.
    private func startListening() {
        let channel = tables.channel, settings = self.settings, logger = self.logger
        let task = Task { [weak self] in
            var backoff = Duration.milliseconds(100)
            while !Task.isCancelled {
                guard let listener = self?.connections.withLock({ $0.listener }) else {
                    do {
                        let connection = try await PostgresConnection.connect(configuration: settings, id: 2, logger: logger)
                        guard let self else {
                            try? await connection.close()
                            return
                        }
                        guard !Task.isCancelled, !self.closed.load(ordering: .acquiring) else {
                            Closing.close(connection)
                            return
                        }
                        self.connections.withLock { $0.listener = connection }
                        backoff = .milliseconds(100)
                    } catch {
                        try? await Task.sleep(for: backoff)
                        backoff = min(backoff * 2, .seconds(5))
                    }
                    continue
                }
                do {
                    try await listener.listen(on: channel) { notifications in
                        self?.news.store(true, ordering: .releasing)
                        for try await notification in notifications {
                            // "<sequence> <origin>": this store's own commits are news to nobody here.
                            guard let self else { return }
                            let origin = notification.payload.split(separator: " ", maxSplits: 1).last.map(String.init)
                            if origin != self.ownOrigin.withLock({ $0 }) { self.news.store(true, ordering: .releasing) }
                        }
                    }
                } catch {}
                // Lost (or cancelled): drop it; the next turn connects again.
                self?.news.store(true, ordering: .releasing)
                self?.connections.withLock { if $0.listener === listener { $0.listener = nil } }
                try? await listener.close()
            }
        }
        listenTask.withLock { $0 = task }
    }

    /// The connection for writes; a new one when the last was lost (the server restarted, the
    /// network failed).
    func connection() throws -> PostgresRestingConnection {
        if let current = connections.withLock({ $0.main }), !current.connection.isClosed { return current }
        // One reconnection at a time (two at once would leave one connection open and unused),
        // and none once the backend is closed.
        reconnecting.lock()
        defer { reconnecting.unlock() }
        guard !closed.load(ordering: .acquiring) else { throw Self.closedError }
        let current = connections.withLock { $0.main }
        if let current, !current.connection.isClosed { return current }
        do {
            let connected = try connect(.writes)
            if current == nil {
                // The first connection: the tables, created when missing.
                do {
                    try tables.create(on: connected, logger: logger)
                } catch {
                    Closing.close(connected)
                    throw error
                }
            }
            let fresh = PostgresRestingConnection(connected, begin: "BEGIN")
            connections.withLock { $0.main = fresh }
            return fresh
        } catch {
            throw Self.map(error, place: place, doing: current == nil ? "open" : "reconnect to")
        }
    }

    /// A new connection whose every wait is bounded, reads included: a lock another client
    /// holds (VACUUM FULL, ALTER TABLE, LOCK TABLE) fails a statement past the busy timeout, and
    /// no statement runs longer than the statement timeout. Its `search_path` is pinned to
    /// `pg_catalog, pg_temp`: every name the backend sends is qualified (its tables by schema,
    /// functions by `pg_catalog.`), so nothing another role creates can stand in for them. Its
    /// `application_name` says what it is for: `relata writes <schema>` or `relata reads <schema>`
    /// in `pg_stat_activity`.
    func connect(_ role: ConnectionRole) throws -> PostgresConnection {
        let eventLoop = PostgresConnection.defaultEventLoopGroup.any()
        let fresh = try PostgresConnection.connect(on: eventLoop, configuration: settings, id: role.rawValue, logger: logger).wait()
        do {
            _ = try fresh.query(
                PostgresQuery(
                    unsafeSQL: """
                        SELECT pg_catalog.set_config('lock_timeout', '\(Self.milliseconds(configuration.busyTimeout))', false),
                               pg_catalog.set_config('statement_timeout', '\(Self.milliseconds(configuration.statementTimeout))', false),
                               pg_catalog.set_config('search_path', 'pg_catalog, pg_temp', false),
                               pg_catalog.set_config('application_name', '\(role.applicationName(schema: configuration.schema))', false)
                        """
                ),
                logger: logger
            ).answer(from: fresh)
        } catch {
            Closing.close(fresh)
            throw error
        }
        return fresh
    }

    /// What a connection of the backend is for: its id in the driver's logs, and its
    /// `application_name`.
    enum ConnectionRole: Int {
        case writes = 1
        case reads = 3

        /// `relata writes <schema>` or `relata reads <schema>` (a schema's name is letters,
        /// digits and `_`, at most 48 characters: within PostgreSQL's 63).
        func applicationName(schema: String) -> String {
            "relata \(self == .writes ? "writes" : "reads") \(schema)"
        }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction: one consistent view of the rows
    /// and the log. Reads run on connections of their own (a few are kept open between reads):
    /// a read never waits for a write in progress, nor for another read. A connection rests
    /// between reads with the next read's transaction begun (see `PostgresRestingConnection`).
    public func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try readers.withReplaceableConnection(make: makeReaderConnection) { acquire in
            try run(lock: false, connection: { Lease(try acquire(), logger: logger) }, body)
        }
    }

    /// The backend as its reader pool knows it: weakly (the pool is the backend's), and set
    /// right after the backend's `init`.
    private final class Owner: @unchecked Sendable {
        private let lock = NSLock()
        private weak var value: PostgresBackend?

        var backend: PostgresBackend? {
            get { lock.withLock { value } }
            set { lock.withLock { value = newValue } }
        }
    }

    /// A new connection for reads, once the tables exist (the first connection makes them).
    private func makeReaderConnection() throws -> PostgresRestingConnection {
        _ = try connection()
        do {
            return PostgresRestingConnection(try connect(.reads), begin: PostgresRestingConnection.readBegin)
        } catch {
            throw Self.map(error, place: place, doing: "read")
        }
    }

    /// Runs `body` in a transaction under the storage's write lock, committed when it returns and
    /// rolled back when it throws.
    ///
    /// The connection for writes rests between writes as a reader connection does: the next
    /// write's `BEGIN` is sent when a write ends, without waiting (a `READ COMMITTED` transaction
    /// takes no snapshot before its first query, and no lock before the writers' lock).
    public func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        try run(lock: true, connection: { Lease(try connection(), logger: logger) }, body)
    }

    /// A connection as one transaction takes it.
    private struct Lease {
        let connection: PostgresConnection
        /// The statement that begins the transaction, unless it was sent ahead (`begun`).
        let begin: String
        /// The transaction's `BEGIN`, when it was sent ahead.
        let begun: EventLoopFuture<PostgresQueryResult>?
        /// Rests the connection once the transaction ended, or with its end: `true` asks to send
        /// the `COMMIT` of a read (whose answer nothing needs) with the next `BEGIN`; `false`, the
        /// transaction was committed or rolled back already.
        let rest: (_ committing: Bool) -> Void

        /// `resting`'s connection, with the `BEGIN` it sent ahead.
        init(_ resting: PostgresRestingConnection, logger: Logger) {
            connection = resting.connection
            begin = resting.begin
            begun = resting.takeBegun()
            rest = { resting.rest(committing: $0, logger: logger) }
        }
    }

    /// Runs `body` in one transaction on the backend's connection. A connection found lost when
    /// the transaction begins is replaced and the transaction begun again; one lost during the
    /// transaction fails it (nothing of it is committed) with a typed error, and the next call
    /// connects again.
    private func run<T>(
        lock: Bool, connection: () throws -> Lease, _ body: (PostgresTransaction) throws -> T
    ) throws -> T {
        var lease = try connection()
        var transaction = self.transaction(on: lease.connection)
        do {
            try start(transaction, begin: lease.begin, begun: lease.begun, lock: lock)
        } catch {
            // The server ended the connection (a restart, `pg_terminate_backend`): its error can
            // arrive before the driver sees the connection close.
            let lost = transaction.connection.isClosed || Self.isServerShutdown(error)
            guard lost else {
                lease.rest(false)
                throw transaction.mapped(error, doing: lock ? "write" : "read")
            }
            Self.closeAndWait(transaction.connection)
            lease = try connection()
            transaction = self.transaction(on: lease.connection)
            do {
                try start(transaction, begin: lease.begin, begun: lease.begun, lock: lock)
            } catch {
                lease.rest(false)
                throw transaction.mapped(error, doing: lock ? "write" : "read")
            }
        }
        let result: T
        do {
            result = try body(transaction)
        } catch {
            _ = try? transaction.execute(PostgresQuery(unsafeSQL: "ROLLBACK"))
            lease.rest(false)
            throw transaction.passedOn(error, doing: lock ? "write" : "read")
        }
        do {
            if transaction.isCommitted {
                // Committed with its rows (persistLast).
                lease.rest(false)
            } else if lock {
                try transaction.execute(PostgresQuery(unsafeSQL: "COMMIT"))
                lease.rest(false)
            } else {
                // A read-only transaction's end answers nothing the read needs: sent without
                // waiting, with the next read's BEGIN.
                lease.rest(true)
            }
        } catch {
            throw transaction.mapped(error, doing: "commit")
        }
        // Tables a write made are known once it committed (a rolled-back one made none).
        let known = transaction.tables.known
        catalog.withLock { $0.keep(known) }
        return result
    }

    /// A transaction on `connection`, from the tables as last known.
    private func transaction(on connection: PostgresConnection) -> PostgresTransaction {
        PostgresTransaction(backend: self, connection: connection, known: catalog.withLock { $0 })
    }

    /// A timeout in PostgreSQL's milliseconds: at least 1 (0 would mean no limit), at most
    /// `Int32.max` (about 24 days: PostgreSQL's own bound).
    static func milliseconds(_ duration: Duration) -> Int {
        let value = duration.timeInterval * 1_000
        guard value.isFinite else { return Int(Int32.max) }
        return Int(min(max(1, value.rounded(.up)), Double(Int32.max)))
    }

    /// Begins the transaction — or, when its `BEGIN` was sent ahead (`begun`), waits for it; for
    /// a write, under the writers' lock (see `PostgresTransaction.begin(_:begun:lockKey:)`: one
    /// round trip).
    private func start(_ transaction: PostgresTransaction, begin: String, begun: EventLoopFuture<PostgresQueryResult>?, lock: Bool) throws {
        do {
            try transaction.begin(begin, begun: begun, lockKey: lock ? tables.lockKey : nil)
        } catch {
            _ = try? transaction.execute(PostgresQuery(unsafeSQL: "ROLLBACK"))
            throw error
        }
    }

    /// Whether another process may have committed since the last call: a cheap hint for the
    /// store's follower, which reads the log when it says yes.
    /// `true`: every read is a round trip to the server.
    public var readsCostRoundTrips: Bool { true }

    public func hasNewCommits() throws -> Bool {
        // A notification is a hint; every 100th check asks the log anyway (notifications sent
        // while the listener was disconnected are lost).
        if ticks.add(1, ordering: .relaxed).newValue % 100 == 0 { return true }
        return news.exchange(false, ordering: .acquiringAndReleasing)
    }

    private let closed = Atomic<Bool>(false)
    /// Held while the connection for writes is replaced (see ``connection()``) and when closing.
    private let reconnecting = NSLock()

    /// What a call after ``close()`` throws.
    static var closedError: RelataError {
        RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed")
    }

    /// The most connections reads use at once (``Configuration/maxReaders``).
    public var maxReaders: Int { configuration.maxReaders }

    /// A backend released without ``close()`` (a store that was never closed) closes its connections.
    deinit {
        listenTask.withLock { $0?.cancel() }
        // Closed without waiting (this may run on any thread); each closing connection is kept
        // until it is closed.
        let (main, listener) = connections.withLock { ($0.main?.connection, $0.listener) }
        for connection in [main, listener].compactMap({ $0 }) where !connection.isClosed {
            Closing.close(connection)
        }
        readers.close()
    }

    /// Releases the storage; later calls fail.
    public func close() throws {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        listenTask.withLock { $0?.cancel() }
        let (main, listener) = reconnecting.withLock { connections.withLock { ($0.main?.connection, $0.listener) } }
        try? listener?.close().answer(within: .seconds(5))
        readers.close()
        do {
            try main?.close().answer(within: .seconds(5))
        } catch {
            throw Self.map(error, place: place, doing: "close")
        }
    }

    /// Whether `error` is the server ending the session (SQLSTATE class 57P: an administrator's
    /// shutdown or termination, a crash, the server starting).
    static func isServerShutdown(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("57P")
    }

    /// Closes a connection the server ended and waits (up to two seconds) until the driver sees
    /// it closed, so that the next `connection()` makes a new one.
    static func closeAndWait(_ connection: PostgresConnection) {
        guard !connection.isClosed else { return }
        Closing.close(connection)
        for _ in 0..<400 where !connection.isClosed { usleep(5_000) }
    }

    /// A driver error as a `RelataError` naming the server, never the credentials.
    static func map(_ error: any Error, place: String, doing action: String) -> RelataError {
        if let error = error as? RelataError { return error }
        if let error = error as? PSQLError {
            let state = error.serverInfo?[.sqlState]
            if state == "55P03" {
                return RelataError(
                    code: .storeBusy, entityType: "Store",
                    message: "cannot \(action) \(place): another writer or client held a lock past the busy timeout"
                )
            }
            if state == "57014" {
                return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(place): a statement ran past the statement timeout")
            }
            let message = safeMessage(state: state, server: error.serverInfo?[.message]) ?? "\(error.code)"
            return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(place): \(message)")
        }
        if error is PostgresConnectionLost {
            return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(place): the connection was lost")
        }
        return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(place): \(type(of: error))")
    }
}

extension PostgresBackend {
    /// The server's message when it names no secret and no stored value: authentication errors
    /// (class 28) quote the role, data and integrity errors (classes 22, 23) the values; those
    /// are replaced by what they mean and their SQLSTATE.
    static func safeMessage(state: String?, server: String?) -> String? {
        guard let state else { return server }
        switch state.prefix(2) {
        case "28": return "authentication failed (SQLSTATE \(state))"
        case "22": return "the server refused a value (SQLSTATE \(state))"
        case "23": return "the server refused a row (SQLSTATE \(state))"
        default: return server.map { "\($0) (SQLSTATE \(state))" }
        }
    }
}

/// Connections closed without waiting, kept until they are closed (a connection must not be
/// released before its close completes).
enum Closing {
    private static let connections = Mutex<[PostgresConnection]>([])

    /// Closes `connection` without waiting, keeping it until it is closed.
    static func close(_ connection: PostgresConnection) {
        connections.withLock { kept in
            kept.removeAll { $0.isClosed }
            kept.append(connection)
        }
        let closing: EventLoopFuture<Void> = connection.close()
        _ = closing
    }
}
