import Foundation
import GRDB
import RelataCore
import Synchronization

/// The default `StorageBackend`: one SQLite file (through GRDB), in WAL mode.
///
/// ```swift
/// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
/// ```
///
/// The file holds a table per entity type (its id, payload — the normalized entity in a compact
/// keyed binary form — and its to-one links in indexed columns), a table per to-many relation
/// (indexed from both ends), `relata_dynamic_link`, the entity counts, the catalog that names
/// those tables (`relata_table`, see `TableCatalog`) and `relata_log` (the change log: one record
/// per commit naming the rows it touched, see `ChangeLogRecord`). Payloads keep property names,
/// like JSON, so adding an optional property or a relation to a model needs no migration; rows of
/// a type or relation the model no longer has are kept but not loaded (`Store.ignoredRecords`).
///
/// Several processes may open one file at once (see the article on sharing a store): each
/// ``write(_:)`` is one `BEGIN IMMEDIATE` transaction, which waits for other writers up to
/// ``busyTimeout``. With WAL and `synchronous = NORMAL`, a committed write survives a crash of
/// the process; the last writes before a power loss may be lost (SQLite's WAL trade-off, see its
/// documentation).
public final class SQLiteBackend: StorageBackend {
    /// The file's path.
    public let path: String
    /// The writer connection (and the follower's `data_version` check), opened by the first
    /// write (or at open, when the file needs its format made or upgraded): a process that only
    /// reads a store opens no writer — one connection fewer to open, each of which parses the
    /// file's whole schema.
    private let writer: Mutex<WriterConnection>
    private let writerConfiguration: Configuration
    /// Runs the checkpoints the writer's commits call for, so that no write waits for one.
    let checkpointer: WALCheckpointer
    /// The connections reads run on, at most ``maxReaders`` at once: a read never waits for a
    /// write in progress (WAL). Each is a read-write connection used only for reads (it sets
    /// `query_only`), so that the last connection to close, whichever it is, may checkpoint and
    /// remove the -wal and -shm files. (GRDB's `DatabasePool` bounds its readers the same way, but
    /// writes to the file when it opens — which a store refused at open must not do.)
    private let readers: ConnectionPool<ReaderConnection>
    /// The most connections reads use at once; more reads wait for one.
    public let maxReaders: Int
    private let readerConfiguration: Configuration
    /// The connection that checked the file at open, kept for ``hasNewCommits()`` before the
    /// writer opens (`PRAGMA data_version`); read-only, and not counted in ``statementCount``.
    private let watch: DatabaseQueue

    /// How long a write waits for another connection's write lock before it throws
    /// `RelataError.Code.storeBusy`.
    public let busyTimeout: Duration
    /// Which change log records the writers keep (older ones are removed).
    public let logRetention: LogRetention
    /// The last `PRAGMA data_version` seen by ``hasNewCommits()``, and whether the writer's
    /// connection answered it (before the first write, `watch` does: its numbers are not the
    /// writer's).
    private let dataVersion = Mutex((version: 0, fromWriter: false))
    private let statements: StatementTally
    /// The typed tables as last read from the file or made by a committed write, and the commit
    /// they are known current as of (see ``KnownCatalog``).
    private let catalog = Mutex(KnownCatalog())
    /// The index declarations of each type this backend's writes last made the file match (see
    /// `SQLiteIndexes`).
    let indexes = Mutex<[String: SQLiteIndexes.Synced]>([:])
    /// The first-rows queries (table and keys) whose rows SQL cannot order outnumbered the
    /// window of one scan: they are read in two (see `SQLiteTransaction.fetchFirstIDs`).
    let manyLooseRows = Mutex<Set<String>>([])
    /// The SQL of the queries by value this backend ran, by shape.
    let queryPlans = SQLiteQueryPlans()

    /// How many SQL statements this backend has run since it opened (SQLite's trace hook counts
    /// each statement once, when it starts; not those SQLite runs for one, such as FTS5's reads
    /// of its own tables).
    ///
    /// A diagnostic for benchmarks and tests: how many statements a read or a write needed.
    public var statementCount: Int { statements.count }

    /// The layouts of the entity rows statements return (see ``EntityRowLayouts``).
    let rowLayouts = EntityRowLayouts()
    /// Counted by ``SQLiteTransaction``'s reads, one per row.
    package let rowsRead = StatementTally()
    /// Counted by ``SQLiteTransaction``'s reads of rows, one per statement.
    package let rowReads = StatementTally()
    /// Rows of full-text tables read by searches (see `SQLiteBackend+Testing.swift`).
    package let fullTextRowsRead = StatementTally()
    /// Reads of the catalog of tables (see `SQLiteBackend+Testing.swift`).
    package let catalogReads = StatementTally()
    /// Reads of the change log's records (see `SQLiteBackend+Testing.swift`).
    package let logReads = StatementTally()

    /// Opens the store file at `path`, creating it (and its schema) when it does not exist.
    ///
    /// A file that exists is checked first, read-only: if it is not a SQLite database, or a SQLite
    /// database that is not a Relata store, or damaged, opening throws and the file is not modified.
    ///
    /// The connection that writes, opened by the first write, keeps up to 16 MB of the file's
    /// pages between writes (SQLite's default is 2 MB): a bulk write changes pages of every index
    /// of its tables, and with less it read most of them back from the operating system at each
    /// write.
    ///
    /// - Throws: `RelataError` with code `RelataError.Code.notAStore`,
    ///   `RelataError.Code.corruptedStore` or `RelataError.Code.storageFailed`.
    /// - Parameters:
    ///   - path: The file.
    ///   - busyTimeout: How long a write waits for another process's write to finish (10 s by
    ///     default); past it, the write throws `RelataError.Code.storeBusy`.
    ///   - logRetention: Which change log records are kept (see `LogRetention`).
    ///   - maxReaders: The most connections reads use at once (4 by default, at least 1); a read
    ///     past them waits for one, in turn, and the connections stay open between reads. Each
    ///     keeps up to 16 MB of the file's pages between reads while nothing is committed (SQLite's
    ///     `PRAGMA cache_size`; SQLite's default is 2 MB): a search or a sorted page reads the same
    ///     index pages again and again, and reading them from the operating system's cache cost a
    ///     search on 100,000 messages a third of its time.
    public init(path: String, busyTimeout: Duration = .seconds(10), logRetention: LogRetention = .standard, maxReaders: Int = 4) throws {
        self.path = path
        self.maxReaders = max(1, maxReaders)
        self.busyTimeout = busyTimeout
        self.logRetention = logRetention
        try Self.checkPath(path)
        let exists = FileManager.default.fileExists(atPath: path)
        var found: (version: Int, wal: Bool, upgrading: Bool)?
        // The connection that checked the file, when it may stay: it becomes `watch` (one open,
        // and no -wal and -shm removed by its close and made again by the writer's open).
        var checked: DatabaseQueue?
        // `stat`, not `FileManager.attributesOfItem`: that one also looks up the names of the
        // file's owner and group (on Linux, reading /etc/passwd and /etc/group at every open).
        var status = stat()
        if exists, stat(path, &status) == 0, status.st_size > 0 {
            (found, checked) = try Self.validate(path: path, busyTimeout: busyTimeout)
        }
        // A store of the current version, already in WAL mode, is not written to by opening it:
        // setting WAL (GRDB then writes to make sure the WAL file exists) and the migrator (which
        // writes even when it has nothing to do) are skipped, so a store that fails to load (a
        // damaged row) is left exactly as it was.
        let current = found.map { $0.version == SQLiteSchema.version && $0.wal && !$0.upgrading } ?? false
        var configuration = Configuration()
        configuration.journalMode = current ? .default : .wal
        configuration.busyMode = .timeout(busyTimeout.seconds(atMost: Duration.longestDriverTimeout))
        let statements = StatementTally()
        self.statements = statements
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
            StatementTrace.install(statements, on: db)
            try SQLiteASCIIFunction.install(on: db)
        }
        // The writer keeps a statement's journal in memory: a write's multi-row statements
        // journal every page they change that an earlier statement of the write had changed, and
        // SQLite's default spills that journal to a temporary file past 64 KiB — about a million
        // `pwrite` calls while building W3's 100,000 indexed messages. It keeps up to 16 MB of
        // pages between writes (`writerCacheSize`).
        var writing = configuration
        let checkpointer = WALCheckpointer(path: path, busyTimeout: busyTimeout)
        self.checkpointer = checkpointer
        writing.prepareDatabase { db in
            try db.execute(sql: Self.writerTempStore)
            try db.execute(sql: Self.writerCacheSize)
            checkpointer.install(on: db)
        }
        writerConfiguration = writing
        do {
            var reading = configuration
            reading.journalMode = .default
            reading.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1; PRAGMA cache_size = -16384") }
            readerConfiguration = reading
            readers = ConnectionPool(
                limit: maxReaders, dispose: { try? $0.queue.close() },
                closedError: { RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed") })
            if current {
                writer = Mutex(.unopened)
            } else {
                let queue = try DatabaseQueue(path: path, configuration: writing)
                writer = Mutex(.open(queue))
                try queue.writeWithoutTransaction { db in try db.inTransaction(.immediate) { try SQLiteSchema.migrate(db, path: path); return .commit } }
                try SQLiteSchema.upgradeToPropertyColumns(queue, path: path)
            }
            watch = try checked ?? DatabaseQueue(path: path, configuration: Self.watching(busyTimeout: busyTimeout, readonly: false))
        } catch {
            try? checked?.close()
            throw Self.map(error, path: path, doing: "open")
        }
    }

    /// The state of the writer's connection (see ``writer``).
    private enum WriterConnection {
        case unopened
        case open(DatabaseQueue)
        case closed
    }

    /// The writer's connection, opened now if no write has opened it yet.
    private func writerQueue() throws -> DatabaseQueue {
        try writer.withLock { state in
            switch state {
            case .open(let queue): return queue
            case .closed: throw RelataError(code: .storeClosed, entityType: "Store", message: "the store is closed")
            case .unopened:
                let queue = try DatabaseQueue(path: path, configuration: writerConfiguration)
                state = .open(queue)
                return queue
            }
        }
    }

    /// The writer's connection if a write opened it.
    private func openWriter() -> DatabaseQueue? {
        writer.withLock { state -> DatabaseQueue? in if case .open(let queue) = state { queue } else { nil } }
    }

    /// Where the writer keeps its temporary data (statement journals): in memory (see `init`).
    static let writerTempStore = "PRAGMA temp_store = MEMORY"

    /// How many of the file's pages the writer keeps between writes: up to 16 MB, as each reader
    /// (SQLite's default is 2 MB). A bulk write of 1,000 messages changes pages of every index
    /// of their tables; with 2 MB, building W1's 100,000 messages read 108,000 pages back from the
    /// operating system's cache and wrote 177,000, with 16 MB 32,000 and 130,000 (3–7% of the
    /// build's time).
    static let writerCacheSize = "PRAGMA cache_size = -16384"

    /// The configuration of the connection that checks a file and then reads `PRAGMA
    /// data_version` (``hasNewCommits()`` before the writer opens): never writing (`query_only`; `readonly` opens it
    /// read-only), waiting `busyTimeout` for another process's checkpoint or close.
    static func watching(busyTimeout: Duration, readonly: Bool) -> Configuration {
        var watching = Configuration()
        watching.readonly = readonly
        watching.journalMode = .default
        watching.busyMode = .timeout(busyTimeout.seconds(atMost: Duration.longestDriverTimeout))
        watching.prepareDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
        return watching
    }

    /// Refuses a path that cannot hold a store before anything is created: a directory, a path in
    /// a folder that does not exist, a file this process may not read and write.
    static func checkPath(_ path: String) throws {
        func refuse(_ reason: String) -> RelataError {
            RelataError(code: .storageFailed, entityType: "Store", message: "cannot open \(path): \(reason)")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw refuse("it is a directory, not a store file") }
            guard access(path, R_OK | W_OK) == 0 else { throw refuse("permission denied (the file must be readable and writable)") }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        else { throw refuse("there is no folder \(folder) to create it in") }
        guard folder.isEmpty || access(folder, W_OK) == 0 else {
            throw refuse("permission denied (cannot create files in \(folder))")
        }
    }

    /// Checks, without writing, that the file at `path` is a Relata store.
    ///
    /// - Returns: The store's format version and whether it is in WAL mode, or `nil` for an
    ///   empty database; and the connection that checked, open, when it was opened read-write
    ///   (no -wal or -shm beside the file): the store keeps it for ``hasNewCommits()``.
    static func validate(
        path: String, busyTimeout: Duration = .seconds(10)
    ) throws -> (found: (version: Int, wal: Bool, upgrading: Bool)?, connection: DatabaseQueue?) {
        // The header is read by SQLite itself (a file that is not a database fails with
        // SQLITE_NOTADB), never through a descriptor of our own: closing any descriptor of the file
        // would release every POSIX lock this process holds on it, including the shared lock of
        // another Store's connection to it (SQLite's "How To Corrupt", 2.2.1).
        // Nothing is written either way. Read-only when the database has -wal or -shm files
        // beside it (another connection uses it, or one crashed; they are left as they are);
        // otherwise a read-write connection, because a read-only one makes those files for a
        // WAL database and leaves them behind, where the last read-write connection removes them
        // as it closes (SQLite knows whether it is the last).
        let companions = [path + "-wal", path + "-shm"].contains { FileManager.default.fileExists(atPath: $0) }
        // Another process may be writing, checkpointing or closing the file meanwhile.
        let configuration = watching(busyTimeout: busyTimeout, readonly: companions)
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            var kept = false
            defer { if !kept { try? reader.close() } }
            let found = try reader.read { db -> (version: Int, wal: Bool, upgrading: Bool)? in
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if tables.isEmpty { return nil }  // an empty database: becomes a store
                guard tables.contains("relata_meta"),
                    try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'format'") == SQLiteSchema.format
                else {
                    throw RelataError(code: .notAStore, entityType: "Store", message: "\(path) is a SQLite database but not a Relata store")
                }
                // A version row that is missing or not a number is damage, not an old store: guessing
                // would run migrations over current tables.
                guard let text = try? String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"),
                    let version = Int(text), version >= 1
                else {
                    throw RelataError(code: .corruptedStore, entityType: "Store", message: "\(path) is damaged: its version row (relata_meta) is missing or not a number")
                }
                guard version <= SQLiteSchema.version else {
                    throw RelataError(
                        code: .notAStore, entityType: "Store",
                        message: "\(path) is a Relata store of version \(version), newer than this library (\(SQLiteSchema.version))"
                    )
                }
                return (
                    version, try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal",
                    try SQLiteSchema.hasPendingUpgrade(db)
                )
            }
            guard !companions else { return (found, nil) }
            // GRDB's `read` sets `query_only` back to 0 as it ends.
            try reader.inDatabase { db in try db.execute(sql: "PRAGMA query_only = 1") }
            kept = true
            return (found, reader)
        } catch let error as RelataError {
            throw error
        } catch {
            throw map(error, path: path, doing: "open")
        }
    }

    /// Runs `body` in a SQLite read transaction: one consistent view of the rows and the log.
    public func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        do {
            // A deferred transaction: one state for every read in it. (GRDB's `read` also sets
            // `query_only` before and after: two statements more per read, for a guard the
            // reader protocol already gives — it has no method that writes.) Its BEGIN and
            // COMMIT are prepared once per connection (GRDB's `inTransaction` prepares both at
            // each call: a fifth of a point read).
            return try readers.withConnection(make: makeReader) { connection in
                try connection.queue.inDatabase { db in
                    try BoundStatement(db, sql: "BEGIN DEFERRED TRANSACTION").step()
                    do {
                        let transaction = transaction(db, reader: connection)
                        defer { keep(transaction.tables.known) }
                        let result = try body(transaction)
                        try BoundStatement(db, sql: "COMMIT TRANSACTION").step()
                        return result
                    } catch {
                        if db.isInsideTransaction { try? BoundStatement(db, sql: "ROLLBACK TRANSACTION").step() }
                        throw error
                    }
                }
            }
        } catch let error as RelataError {
            throw error
        } catch {
            throw Self.map(error, path: path, doing: "read")
        }
    }

    /// Runs `body` in a transaction under the storage's write lock, committed when it returns and
    /// rolled back when it throws.
    public func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        // What a rolled-back write made of the indexes is gone with it.
        let indexesBefore = indexes.withLock { $0 }
        do {
            return try writeTransaction(body)
        } catch {
            indexes.withLock { $0 = indexesBefore }
            throw error
        }
    }

    private func writeTransaction<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        do {
            return try writerQueue().writeWithoutTransaction { db in
                // IMMEDIATE: the write lock is taken (or waited for, up to the busy timeout) before
                // anything is read, so the catch-up and the closure see the newest state. BEGIN
                // and COMMIT are prepared once per connection, as a read's are (GRDB's
                // `inTransaction` prepares both at each call: a twentieth of a point write).
                try BoundStatement(db, sql: "BEGIN IMMEDIATE TRANSACTION").step()
                let transaction = transaction(db)
                let result: T
                do {
                    do {
                        result = try body(transaction)
                    } catch {
                        throw Thrown(error: error)
                    }
                    try BoundStatement(db, sql: "COMMIT TRANSACTION").step()
                } catch {
                    // (SQLite may have rolled back already, on an I/O error or a full disk.)
                    if db.isInsideTransaction { try? BoundStatement(db, sql: "ROLLBACK TRANSACTION").step() }
                    throw error
                }
                // Tables a write made are known once it committed (a rolled-back one made none).
                keep(transaction.tables.known)
                return result
            }
        } catch let thrown as Thrown {
            // What the store's closure threw reaches its caller as it is; the database's own
            // errors met while persisting become RelataErrors.
            if thrown.error is DatabaseError { throw Self.map(thrown.error, path: path, doing: "write") }
            throw thrown.error
        } catch let error as RelataError {
            throw error
        } catch {
            throw Self.map(error, path: path, doing: "write")
        }
    }

    /// A transaction on `db`, from the tables as last known.
    private func transaction(_ db: Database, reader: ReaderConnection? = nil) -> SQLiteTransaction {
        SQLiteTransaction(db: db, backend: self, known: catalog.withLock { $0 }, reader: reader)
    }

    /// A new connection for the readers' pool.
    private func makeReader() throws -> ReaderConnection {
        ReaderConnection(try DatabaseQueue(path: path, configuration: readerConfiguration))
    }

    /// Keeps the catalog a transaction read or grew (``KnownCatalog/keep(_:)``).
    private func keep(_ known: KnownCatalog) {
        catalog.withLock { $0.keep(known) }
    }

    /// An error of the body of ``write(_:)``, told apart from the database's own.
    private struct Thrown: Error {
        let error: any Error
    }

    /// Whether another process may have committed since the last call: a cheap hint for the
    /// store's follower, which reads the log when it says yes.
    public func hasNewCommits() throws -> Bool {
        do {
            // Changes when another connection (this process or another) commits; this
            // connection's own commits leave it as it is. Before the first write, the watching
            // connection answers (no write of this store has been made to leave out); the first
            // answer after the writer opens says yes, its numbers being another connection's.
            let writer = openWriter()
            let version = try (writer ?? watch).inDatabase { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
            return dataVersion.withLock { last in
                defer { last = (version, writer != nil) }
                return last != (version, writer != nil)
            }
        } catch {
            throw Self.map(error, path: path, doing: "read")
        }
    }

    /// `PRAGMA data_version` of one of the readers' connections, with the connection's number
    /// (see `ReaderConnection`): it changes whenever another connection — this store's writer
    /// included — commits. It equals the token of a read transaction on that connection
    /// (`StorageReader.commitToken()`) while nothing was committed since; a token of another
    /// connection never equals it.
    public func commitToken() throws -> Int64? {
        do {
            return try readers.withConnection(make: makeReader) { connection in
                try connection.queue.inDatabase { db in try connection.commitToken(db) }
            }
        } catch let error as RelataError {
            throw error
        } catch {
            throw Self.map(error, path: path, doing: "read")
        }
    }

    /// Releases the storage; later calls fail.
    public func close() throws {
        do {
            // The checkpointer and the readers first: the writer, closing last, checkpoints and
            // removes -wal and -shm.
            try checkpointer.close()
            readers.close()
            try watch.close()
            let queue = writer.withLock { state -> DatabaseQueue? in
                defer { state = .closed }
                if case .open(let queue) = state { return queue } else { return nil }
            }
            try queue?.close()
        } catch {
            throw Self.map(error, path: path, doing: "close")
        }
    }

    /// The driver's error as a `RelataError`.
    static func map(_ error: any Error, path: String, doing action: String) -> RelataError {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return RelataError(
                    code: .storeBusy, entityType: "Store", message: "cannot \(action) \(path): another connection held its write lock past the busy timeout",
                    underlying: error
                )
            case .SQLITE_NOTADB:
                return RelataError(code: .notAStore, entityType: "Store", message: "\(path) is not a SQLite database", underlying: error)
            case .SQLITE_CORRUPT:
                return RelataError(code: .corruptedStore, entityType: "Store", message: "\(path) is damaged", underlying: error)
            default:
                return RelataError(
                    code: .storageFailed, entityType: "Store", message: "cannot \(action) \(path): \(error.message ?? "\(error.resultCode)")",
                    underlying: error
                )
            }
        }
        return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(path): \(error)")
    }
}

extension Store {
    /// Opens (or creates) the SQLite store file at `path` and loads it.
    ///
    /// ```swift
    /// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
    /// ```
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - maxReaders: The most connections reads use at once (4 by default); more reads wait
    ///     for one, in turn.
    ///   - entities: The entity types the store holds.
    /// - Throws: `RelataError` when the file is not a Relata store, is damaged, or cannot be read.
    public convenience init(path: String, maxReaders: Int = 4, entities: any EntityModelProtocol.Type...) async throws {
        try await self.init(backend: SQLiteBackend(path: path, maxReaders: maxReaders), schema: EntitySchema(entities))
    }
}
