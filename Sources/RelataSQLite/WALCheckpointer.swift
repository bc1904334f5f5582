import Foundation
import GRDB
import GRDBSQLite
import RelataCore
import Synchronization

/// Runs the WAL checkpoints a store's writes call for on a connection and a thread of their own,
/// so that no write waits for the whole of one.
///
/// By default SQLite checkpoints in the commit that takes the WAL past 1,000 pages: that commit
/// copies the pages back into the database file before it returns (about 3.5 ms on this project's
/// benchmark machine, once every hundred point writes of a chat store). Here the writer's
/// connection does not checkpoint (`sqlite3_wal_hook` replaces SQLite's automatic checkpoint).
/// Its hook hands the checkpoint, `PASSIVE` as SQLite's own, to this checkpointer's queue, which
/// runs it on a connection opened for it while writes go on. The first commit after it ends
/// checkpoints what those writes added (a few pages) itself: a WAL starts again from its
/// beginning only when a write begins with every page checkpointed, which a checkpoint running
/// beside a stream of writes never sees.
///
/// Should the WAL outgrow ``inlineLimit`` pages all the same (checkpoints that cannot keep up, or
/// fail), the commit checkpoints itself, as SQLite would: the WAL stays bounded.
final class WALCheckpointer: Sendable {
    /// The WAL size, in pages, past which a commit calls for a checkpoint (SQLite's default).
    static let threshold: Int32 = 1_000
    /// The WAL size, in pages, past which the commit checkpoints itself.
    static let inlineLimit: Int32 = 8 * threshold

    private let path: String
    private let configuration: Configuration
    private let queue = DispatchQueue(label: "relata.sqlite.checkpoint", qos: .utility)
    private let state = Mutex(State())
    /// Checkpoints run on ``queue`` (see `SQLiteBackend+Testing.swift`).
    let completed = StatementTally()

    private struct State {
        var phase = Phase.idle
        var connection: DatabaseQueue?
        var closed = false
    }

    private enum Phase {
        /// No checkpoint under way.
        case idle
        /// A checkpoint is queued or running on ``queue``.
        case running
        /// A checkpoint ran: the next commit checkpoints the rest.
        case ran
    }

    /// A checkpointer for the file at `path`, whose connection waits `busyTimeout` to open.
    init(path: String, busyTimeout: Duration) {
        self.path = path
        var configuration = Configuration()
        configuration.journalMode = .default
        configuration.busyMode = .timeout(busyTimeout.seconds(atMost: Duration.longestDriverTimeout))
        self.configuration = configuration
    }

    /// Makes `db`, a writer's connection, leave its checkpoints to this checkpointer. The
    /// connection's configuration must keep this checkpointer alive (it is the hook's context).
    func install(on db: Database) {
        sqlite3_wal_hook(db.sqliteConnection, { context, connection, name, pages in
            guard let context else { return SQLITE_OK }
            let checkpointer = Unmanaged<WALCheckpointer>.fromOpaque(context).takeUnretainedValue()
            if checkpointer.committed(pages: pages) {
                // Busy (another process's checkpoint): a later commit tries again.
                _ = sqlite3_wal_checkpoint_v2(connection, name, SQLITE_CHECKPOINT_PASSIVE, nil, nil)
            }
            // Anything else would make the committed write's statement report an error.
            return SQLITE_OK
        }, Unmanaged.passUnretained(self).toOpaque())
    }

    /// Notes a commit that left `pages` pages in the WAL: queues a checkpoint when the WAL is
    /// past ``threshold`` and none is under way.
    ///
    /// - Returns: Whether the commit should checkpoint itself (a queued one ran, or the WAL is
    ///   past ``inlineLimit``).
    private func committed(pages: Int32) -> Bool {
        let (start, inline) = state.withLock { state -> (Bool, Bool) in
            switch state.phase {
            case .ran:
                state.phase = .idle
                return (false, true)
            case .running:
                return (false, pages >= Self.inlineLimit)
            case .idle:
                guard pages >= Self.threshold else { return (false, false) }
                guard !state.closed, pages < Self.inlineLimit else { return (false, true) }
                state.phase = .running
                return (true, false)
            }
        }
        if start { queue.async { self.run() } }
        return inline
    }

    private func run() {
        let connection = state.withLock { state -> DatabaseQueue? in
            guard !state.closed else { return nil }
            if state.connection == nil { state.connection = try? DatabaseQueue(path: path, configuration: configuration) }
            return state.connection
        }
        // A checkpoint that fails (another process's in progress, a file gone) leaves the pages
        // to the commit that follows.
        if let connection, (try? connection.inDatabase({ try $0.checkpoint(.passive) })) != nil { completed.add() }
        state.withLock { $0.phase = .ran }
    }

    /// Waits for a checkpoint in progress and closes the connection; no checkpoint runs after.
    func close() throws {
        let connection = queue.sync {
            state.withLock { state -> DatabaseQueue? in
                state.closed = true
                defer { state.connection = nil }
                return state.connection
            }
        }
        try connection?.close()
    }
}
