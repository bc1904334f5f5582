import Foundation
import GRDB
import Relata
import RelataPostgres
import Testing

/// The change log keeps a prefix-free suffix of the commits: pruning never leaves a gap a lagging
/// store would skip unnoticed, and a retention that keeps nothing is refused on every backend.
@Suite("Hardening: change log retention")
struct LogRetentionTests {
    /// One commit of one entity, through the backend itself.
    static func commit(_ backend: some StorageBackend, _ id: String) throws -> Int64 {
        var changes = StoreChanges()
        changes.upsertedEntities = [EntityRecord(type: "T", id: id, payload: Data([1]))]
        return try backend.persist(changes)
    }

    @Test("A clock that steps back never makes pruning drop a record in the middle of the log, nor one not yet expired")
    func clockStepsBack() throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Under 64 records: every commit prunes.
        let backend = try SQLiteBackend(path: path, logRetention: LogRetention(maxRecords: 50, maxAge: .seconds(600)))
        for i in 1...10 { _ = try Self.commit(backend, "e\(i)") }
        // Records 1–5 were written while the clock ran an hour ahead; then it stepped back two
        // hours, so records 6–10 look older than the retention allows.
        let now = Date().timeIntervalSince1970
        try Self.setTimes(path, ["seq <= 5": now + 3_600, "seq > 5": now - 3_600])
        _ = try Self.commit(backend, "e11")
        // Records 6–10 stay behind 1–5, which have not expired: a store at any commit catches up.
        for since in [0, 5] as [Int64] {
            let changes = try #require(try backend.read { try $0.changes(since: since) })
            #expect(!changes.needsReload, "nothing was pruned, a store at \(since) must not reload")
            #expect(Set(changes.touched.entities.map(\.id)) == Set((Int(since) + 1...11).map { "e\($0)" }), "a commit after \(since) is missing")
        }
        // Once 1–5 expire too, the whole expired prefix goes.
        try Self.setTimes(path, ["seq <= 5": now - 7_200])
        _ = try Self.commit(backend, "e12")
        #expect(try backend.read { try $0.changes(since: 9) }?.needsReload == true, "records 1–10 expired: a store at 9 must reload")
        let kept = try #require(try backend.read { try $0.changes(since: 10) })
        #expect(!kept.needsReload && Set(kept.touched.entities.map(\.id)) == ["e11", "e12"], "the records not expired are kept")
        try backend.close()
    }

    /// Sets the commit times of the log's records matching each condition (by sequence).
    static func setTimes(_ path: String, _ times: KeyValuePairs<String, Double>) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            for (condition, at) in times { try db.execute(sql: "UPDATE relata_log SET at = ? WHERE \(condition)", arguments: [at]) }
        }
    }

    @Test("A file of version 11 (its log numbered by AUTOINCREMENT, with a time index) keeps its records and their sequences when upgraded; commits follow the last")
    func logRenumberedByTheUpgrade() throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let retention = try LogRetention(maxRecords: 50, maxAge: .milliseconds(300))
        var backend = try SQLiteBackend(path: path, logRetention: retention)
        for i in 1...5 { _ = try Self.commit(backend, "e\(i)") }
        try backend.close()
        // The log as version 11 kept it: numbered through sqlite_sequence, indexed by time.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE old_log (seq INTEGER PRIMARY KEY AUTOINCREMENT, origin TEXT NOT NULL, at REAL NOT NULL, record BLOB NOT NULL);
                    INSERT INTO old_log SELECT * FROM relata_log;
                    DROP TABLE relata_log;
                    ALTER TABLE old_log RENAME TO relata_log;
                    CREATE INDEX relata_log_at ON relata_log (at);
                    UPDATE relata_meta SET value = '11' WHERE key = 'version';
                    """
            )
        }
        func schema() throws -> (version: String?, log: String?, index: Bool, counter: Bool) {
            try queue.read { db in
                (
                    try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"),
                    try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'relata_log'"),
                    try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'relata_log_at'") ?? false,
                    try Bool.fetchOne(db, sql: "SELECT count(*) > 0 FROM sqlite_sequence WHERE name = 'relata_log'") ?? false
                )
            }
        }
        let before = try schema()
        #expect(before.version == "11" && before.log?.contains("AUTOINCREMENT") == true && before.index && before.counter)
        backend = try SQLiteBackend(path: path, logRetention: retention)
        let after = try schema()
        #expect(after.version == "12" && after.log?.contains("AUTOINCREMENT") == false && !after.index && !after.counter)
        // Every record kept its sequence: a store at 2 reads commits 3–5.
        let changes = try #require(try backend.read { try $0.changes(since: 2) })
        #expect(!changes.needsReload && Set(changes.touched.entities.map(\.id)) == ["e3", "e4", "e5"])
        #expect(try Self.commit(backend, "e6") == 6, "the next commit follows the last record")
        // Records past maxAge still go (a commit under 64 records prunes), the newest stays.
        Thread.sleep(forTimeInterval: 0.4)
        #expect(try Self.commit(backend, "e7") == 7)
        #expect(try backend.read { try $0.changes(since: 5) }?.needsReload == true, "records older than maxAge were pruned")
        #expect(try backend.read { try $0.changes(since: 6) }.map { $0.touched.entities.map(\.id) } == ["e7"], "the newest is kept")
        try queue.close()
        try backend.close()
    }

    @Test("Retention below one record, or a maxAge of zero, is refused with a typed error", arguments: [0, -1, Int.min])
    func refusesRetentionOfNothing(records: Int) throws {
        #expect(throws: RelataError.self) { try LogRetention(maxRecords: records) }
        do {
            _ = try LogRetention(maxRecords: records)
        } catch {
            #expect(error.code == .invalidConfiguration)
        }
        #expect(throws: RelataError.self) { try LogRetention(maxRecords: 10, maxAge: .zero) }
    }

    @Test("The smallest retention (1 record) keeps the newest record on every backend: another store sees each commit")
    func oneRecordKeepsTheNewest() async throws {
        let retention = try LogRetention(maxRecords: 1)
        let memory = InMemoryBackend(logRetention: retention)
        for i in 1...3 { _ = try Self.commit(memory, "e\(i)") }
        let changes = try #require(try memory.read { try $0.changes(since: 2) })
        #expect(!changes.needsReload && changes.touched.entities.map(\.id) == ["e3"])
        #expect(LogRetention.standard.maxRecords == 10_000 && LogRetention.standard.maxAge == .seconds(600))

        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let postgres = try PostgresBackend.open(url: url, configuration: .init(schema: schema, logRetention: retention))
        defer { try? postgres.close() }
        var last: Int64 = 0
        for i in 1...3 { last = try Self.commit(postgres, "e\(i)") }
        let seen = try #require(try postgres.read { try $0.changes(since: last - 1) })
        #expect(!seen.needsReload && seen.touched.entities.map(\.id) == ["e3"], "the commit's own record survived its pruning")
    }
}
