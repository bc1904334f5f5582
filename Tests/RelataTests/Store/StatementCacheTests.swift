import Foundation
import Relata
import Testing

/// The SQLite backend keeps each read statement prepared; a table another connection added a
/// column to (a to-one relation's first link) is read with its new column, never with the
/// columns the kept statement had.
@Suite("SQLite: kept statements follow columns another connection added")
struct StatementCacheTests {
    @EntityModel
    struct Folder: Codable {
        let id: String
    }

    @EntityModel
    struct Sheet: Codable {
        let id: String
        var title: String
        @Relationship var folder: Folder? = nil
    }

    @Test("A store whose kept statement read a table before another store added a column reads the new column's links")
    func columnAddedElsewhere() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = EntitySchema(Folder.self, Sheet.self)
        let reader = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil, cacheLimit: 0)
        let writer = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil, cacheLimit: 0)
        try await writer.write { try Sheet(id: "a", title: "A").save(to: &$0) }
        // The reader prepares and keeps `SELECT *` of the sheets' table, without a folder column.
        #expect(try await reader.read { $0.entity(Sheet.self, id: "a")?.title } == "A")
        #expect(try await reader.read { Sheet.query("a", in: $0).with(\.$folder).resolve()?.folder } == nil)
        // The writer links a sheet to a folder for the first time: the table gains the column.
        try await writer.write { try Sheet(id: "b", title: "B", folder: .relation(Folder(id: "f"))).save(to: &$0) }
        #expect(try await reader.read { Sheet.query("b", in: $0).with(\.$folder).resolve()?.folder?.id } == "f")
        #expect(try await reader.read { $0.entity(Sheet.self, id: "a")?.title } == "A")
        try await reader.close()
        try await writer.close()
    }

    @Test("A kept statement that returned no row before another store added a column reads the new column's links")
    func columnAddedAfterEmptyRead() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let schema = EntitySchema(Folder.self, Sheet.self)
        let reader = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil, cacheLimit: 0)
        let writer = try await Store(backend: SQLiteBackend(path: path), schema: schema, followInterval: nil, cacheLimit: 0)
        try await writer.write { try Sheet(id: "a", title: "A").save(to: &$0) }
        // The reader prepares and keeps the statement that reads sheets by id; it finds no row,
        // so the statement's columns are never looked at.
        #expect(try await reader.read { $0.entity(Sheet.self, id: "z") } == nil)
        try await writer.write { try Sheet(id: "a", title: "A", folder: .relation(Folder(id: "f"))).save(to: &$0) }
        // SQLite prepares the kept statement again at its first step; the columns of its first
        // row are those it has now, not the ones counted when the rows were asked for.
        #expect(try await reader.read { Sheet.query("a", in: $0).with(\.$folder).resolve()?.folder?.id } == "f")
        try await reader.close()
        try await writer.close()
    }
}
