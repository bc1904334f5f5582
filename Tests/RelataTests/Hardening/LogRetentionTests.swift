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

    @Test("A clock that steps back never makes pruning drop a record in the middle of the log")
    func clockStepsBack() throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Under 64 records: every commit prunes.
        let backend = try SQLiteBackend(path: path, logRetention: LogRetention(maxRecords: 50, maxAge: .seconds(600)))
        for i in 1...10 { _ = try Self.commit(backend, "e\(i)") }
        // Records 1–5 were written while the clock ran an hour ahead; then it stepped back two
        // hours, so records 6–10 look older than the retention allows.
        let queue = try DatabaseQueue(path: path)
        let now = Date().timeIntervalSince1970
        try queue.write { db in
            try db.execute(sql: "UPDATE relata_log SET at = ? WHERE seq <= 5", arguments: [now + 3_600])
            try db.execute(sql: "UPDATE relata_log SET at = ? WHERE seq > 5", arguments: [now - 3_600])
        }
        try queue.close()
        _ = try Self.commit(backend, "e11")
        // A store that had applied the first 5 commits asks for what followed.
        let changes = try #require(try backend.read { try $0.changes(since: 5) })
        if !changes.needsReload {
            let ids = Set(changes.touched.entities.map(\.id))
            #expect(ids == Set((6...11).map { "e\($0)" }), "a commit after 5 is missing from the log, and nothing says so")
        }
        let kept = try backend.read { try $0.changes(since: 0) }
        #expect(kept?.needsReload == true, "the oldest records are gone: a store at 0 must reload")
        try backend.close()
    }

    @Test("A file made before the log's time index gets it at its first pruning write, and records past maxAge still go")
    func timeIndexAddedAtAWrite() throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let retention = try LogRetention(maxRecords: 50, maxAge: .milliseconds(200))
        var backend = try SQLiteBackend(path: path, logRetention: retention)
        for i in 1...5 { _ = try Self.commit(backend, "e\(i)") }
        try backend.close()
        func hasIndex() throws -> Bool {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { try Bool.fetchOne($0, sql: "SELECT count(*) > 0 FROM sqlite_master WHERE name = 'relata_log_at'") ?? false }
        }
        #expect(try hasIndex(), "a new file has it")
        let queue = try DatabaseQueue(path: path)
        try queue.write { try $0.execute(sql: "DROP INDEX relata_log_at") }
        try queue.close()
        // Opening does not write the file; a write (under 64 records: every one prunes) adds it.
        backend = try SQLiteBackend(path: path, logRetention: retention)
        #expect(try !hasIndex())
        Thread.sleep(forTimeInterval: 0.3)
        _ = try Self.commit(backend, "e6")
        #expect(try hasIndex())
        #expect(try backend.read { try $0.changes(since: 4) }?.needsReload == true, "records older than maxAge were pruned")
        #expect(try backend.read { try $0.changes(since: 5) }.map { Set($0.touched.entities.map(\.id)) } == ["e6"], "the newest is kept")
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
