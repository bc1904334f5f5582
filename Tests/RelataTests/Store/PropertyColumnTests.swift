import Foundation
import GRDB
import Relata
@testable import RelataCore
@testable import RelataSQLite
import Testing

/// Each stored property is a typed column of its type's table (SQLite format 8): readable with
/// SQL, exact on the way back, and files of format 7 upgraded into it in batches that resume.
@Suite("Store: typed property columns")
struct PropertyColumnTests {
    @EntityModel
    struct Reading: Codable, Equatable {
        enum Unit: String, Codable { case celsius, kelvin }
        struct Place: Codable, Equatable { var name: String; var at: [Double] }
        let id: String
        var value: Double
        var count: Int
        var huge: UInt64
        var ok: Bool
        var unit: Unit
        var taken: Date
        var raw: Data
        var note: String?
        var place: Place
        var blob: [Data]
        var odd: Double
    }

    static func reading(_ i: Int) -> Reading {
        Reading(
            id: "r\(i)", value: Double(i) / 3, count: -i, huge: UInt64.max - UInt64(i), ok: i % 2 == 0, unit: i % 2 == 0 ? .celsius : .kelvin,
            taken: Date(timeIntervalSinceReferenceDate: 1_000.000_001 * Double(i)), raw: Data([UInt8(i % 256), 0, 7]),
            note: i % 3 == 0 ? nil : "note \"\(i)\"\n", place: Reading.Place(name: "p\(i)", at: [1e16, 0.1, -0.0, Double(i)]),
            blob: [Data([1, 2])], odd: i % 2 == 0 ? .nan : .infinity
        )
    }

    /// The columns of `type`'s table by property name: `(column, SQL type of the stored value, text of it)`.
    static func columns(_ db: Database, type: String, id: String) throws -> [String: (String, String)] {
        let table = try #require(try LegacyStoreFile.entityTable(db, type))
        var found: [String: (String, String)] = [:]
        for entry in try Row.fetchAll(db, sql: "SELECT number, relation FROM relata_table WHERE type = ? AND kind LIKE 'property %'", arguments: [type]) {
            let column = "c\(entry["number"] as Int64)"
            let row = try #require(try Row.fetchOne(db, sql: "SELECT typeof(\(column)) AS t, CAST(\(column) AS TEXT) AS v FROM \(table) WHERE id = ?", arguments: [id]))
            found[entry["relation"]] = (row["t"], row["v"] ?? "NULL")
        }
        return found
    }

    @Test("Each stored property is a column of its SQL type, readable with SQL; what no column can hold exactly stays in the payload")
    func typedColumns() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(path: path, entities: Reading.self)
        try await store.write { context in for i in 1...3 { try Self.reading(i).save(to: &context) } }
        try await store.close()
        let queue = try DatabaseQueue(path: path)
        let columns = try await queue.read { try Self.columns($0, type: EntitySchema.storageName(of: Reading.self), id: "r1") }
        try queue.close()
        #expect(columns["id"]?.1 == "r1" && columns["id"]?.0 == "text")
        #expect(columns["value"]?.0 == "real" && Double(columns["value"]!.1).map { abs($0 - 1.0 / 3) < 1e-12 } == true)
        #expect(columns["count"]?.0 == "integer" && columns["count"]?.1 == "-1")
        #expect(columns["huge"]?.0 == "text" && columns["huge"]?.1 == String(UInt64.max - 1), "above Int64.max: decimal text")
        #expect(columns["ok"]?.0 == "integer" && columns["ok"]?.1 == "0")
        #expect(columns["unit"]?.1 == "kelvin", "a raw-value enum is its raw value")
        #expect(columns["taken"]?.0 == "real", "a Date is seconds since 2001")
        #expect(columns["raw"]?.0 == "blob")
        #expect(columns["note"]?.1 == "note \"1\"\n")
        #expect(columns["place"]?.0 == "text" && columns["place"]?.1.hasPrefix("{") == true, "a nested value is JSON")
        #expect(columns["blob"] == nil, "a nested value holding Data stays in the payload")
        #expect(columns["odd"]?.1 == "Inf", "infinity is a REAL; NaN stays in the payload")
        // A view named after the type shows a column per property, for people using sqlite3.
        let viewed = try await DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT id, count, note, unit FROM \"\(EntitySchema.storageName(of: Reading.self))\" ORDER BY count DESC")
        }
        #expect(viewed.map { $0["id"] as String } == ["r1", "r2", "r3"])
        #expect(viewed.map { $0["note"] as String? } == ["note \"1\"\n", "note \"2\"\n", nil])
        #expect(viewed.map { $0["unit"] as String } == ["kelvin", "celsius", "kelvin"])
        let reopened = try await Store(path: path, entities: Reading.self)
        for i in 1...3 {
            var read = try #require(try await reopened.read { $0.entity(Reading.self, id: "r\(i)") })
            var expected = Self.reading(i)
            // NaN is never equal to itself: compared apart.
            #expect(read.odd.isNaN == expected.odd.isNaN && (read.odd.isNaN || read.odd == expected.odd))
            (read.odd, expected.odd) = (0, 0)
            #expect(read == expected, "r\(i) reads back exactly")
        }
        try await reopened.close()
    }

    @Test("A format 7 file is upgraded into columns in batches after it opens; an interrupted upgrade resumes at the next open")
    func upgradeResumes() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = SQLiteSchema.upgradeBatch * 2 + 17
        let store = try await Store(path: path, entities: Reading.self)
        try await store.write { context in for i in 0..<count { try Self.reading(i).save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion7(path)
        let type = EntitySchema.storageName(of: Reading.self)

        // Stopped after its first batch: the file is version 8, its rows half moved, and reads right.
        let interrupted = try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) {
            try await Store(path: path, entities: Reading.self)
        }
        let all = try await interrupted.read { context in Reading.query(in: context).resolve() }
        #expect(all.count == count)
        #expect(all.allSatisfy { $0.value == Self.reading(Int($0.id.dropFirst())!).value && $0.place == Self.reading(Int($0.id.dropFirst())!).place })
        try await interrupted.close()
        func state() async throws -> (version: String?, marker: String?, moved: Int) {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try await queue.read { db in
                let table = try #require(try LegacyStoreFile.entityTable(db, type))
                let column = try Int64.fetchOne(db, sql: "SELECT number FROM relata_table WHERE type = ? AND relation = 'count'", arguments: [type])
                let moved = try column.map { try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE c\($0) IS NOT NULL") ?? 0 } ?? 0
                return (
                    try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'"),
                    try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'columns_table'"), moved
                )
            }
        }
        let half = try await state()
        #expect(half.version == "\(SQLiteSchema.version)" && half.marker != nil, "the marker says the upgrade is not done")
        #expect(half.moved == SQLiteSchema.upgradeBatch, "one batch moved: \(half.moved)")

        // The next open finishes it.
        let resumed = try await Store(path: path, entities: Reading.self)
        try await resumed.close()
        let done = try await state()
        #expect(done.marker == nil && done.moved == count, "every row moved, the marker gone: \(done)")
        let again = try await Store(path: path, entities: Reading.self)
        for i in [0, SQLiteSchema.upgradeBatch, count - 1] {
            var read = try #require(try await again.read { $0.entity(Reading.self, id: "r\(i)") })
            var expected = Self.reading(i)
            #expect(read.odd.isNaN == expected.odd.isNaN && (read.odd.isNaN || read.odd == expected.odd))
            (read.odd, expected.odd) = (0, 0)
            #expect(read == expected)
        }
        try await again.close()
    }
}
