import Foundation
import GRDB
import Relata
import Testing

/// Paths that cannot hold a store, and files that are not stores: each is a typed error that
/// names the path, creates nothing, and leaves nothing beside the file (no `-wal` or `-shm`).
@Suite("SQLite store: bad paths and files")
struct SQLiteStoreBadPathTests {
    /// The names in `directory`, sorted.
    static func contents(_ directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
    }

    static func expectOpenFails(_ path: String, code: RelataError.Code) async -> RelataError? {
        let error = await #expect(throws: RelataError.self) { try await Store(path: path, entities: User.self) }
        #expect(error?.code == code, "\(String(describing: error))")
        #expect(error?.message.contains(path) == true, "the message names the path")
        return error
    }

    @Test("A path that is a directory is a storage error, and nothing is created")
    func directoryPath() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        let error = await Self.expectOpenFails(path, code: .storageFailed)
        #expect(error?.message.contains("is a directory") == true)
        #expect(try Self.contents(directory) == ["store.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: path).isEmpty)
    }

    @Test("A path in a missing folder, or under a file, is a storage error, and nothing is created")
    func missingFolder() async throws {
        let (directory, _) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let missing = directory.appendingPathComponent("missing/store.sqlite").path
        let error = await Self.expectOpenFails(missing, code: .storageFailed)
        #expect(error?.message.contains("no folder") == true)
        let file = directory.appendingPathComponent("notes.txt")
        try Data("notes".utf8).write(to: file)
        await _ = Self.expectOpenFails(file.appendingPathComponent("store.sqlite").path, code: .storageFailed)
        #expect(try Self.contents(directory) == ["notes.txt"])
    }

    @Test("A file this process may not read or write is a storage error")
    func unreadableFile() async throws {
        // Root reads and writes any file whatever its mode, so the refusal is only seen as
        // another user; root gets the store (the file is a fine one).
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(path: path, entities: User.self)
        try await store.save(User(id: "a", name: "A"))
        try await store.close()
        try FileManager.default.setAttributes([.posixPermissions: 0o000], ofItemAtPath: path)
        if geteuid() == 0 {
            let reopened = try await Store(path: path, entities: User.self)
            #expect(reopened.context.entity(User.self, id: "a") != nil)
            try await reopened.close()
        } else {
            let error = await Self.expectOpenFails(path, code: .storageFailed)
            #expect(error?.message.contains("permission") == true)
            #expect(try Self.contents(directory) == ["store.sqlite"])
        }
    }

    @Test("A foreign, damaged or non-SQLite file leaves no -wal or -shm beside it")
    func noStrayFiles() async throws {
        // Not SQLite.
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("these are my notes\n".utf8).write(to: URL(fileURLWithPath: path))
        await _ = Self.expectOpenFails(path, code: .notAStore)
        #expect(try Self.contents(directory) == ["store.sqlite"])
        // Another application's database, in WAL mode.
        try FileManager.default.removeItem(atPath: path)
        var configuration = Configuration()
        configuration.journalMode = .wal
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try await queue.write { try $0.execute(sql: "CREATE TABLE notes (text TEXT)") }
        try queue.close()
        #expect(try Self.contents(directory) == ["store.sqlite"], "the other application left none")
        await _ = Self.expectOpenFails(path, code: .notAStore)
        #expect(try Self.contents(directory) == ["store.sqlite"])
        // A store whose row no longer decodes: reading it fails after the file opened.
        try FileManager.default.removeItem(atPath: path)
        let store = try await Store(path: path, entities: User.self)
        try await store.save(User(id: "a", name: "A"))
        try await store.close()
        let writer = try DatabaseQueue(path: path)
        try await writer.write { db in
            let table = try #require(try LegacyStoreFile.entityTable(db, User.storedTypeName))
            try db.execute(sql: "UPDATE \(table) SET payload = x'0001FF'")
        }
        try writer.close()
        #expect(try Self.contents(directory) == ["store.sqlite"])
        let damaged = try await Store(path: path, entities: User.self)
        #expect(throws: RelataError.self) { try damaged.read { $0.entity(User.self, id: "a") } }
        try await damaged.close()
        #expect(try Self.contents(directory) == ["store.sqlite"])
    }
}
