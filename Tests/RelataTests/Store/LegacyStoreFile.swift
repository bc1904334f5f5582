import Foundation
import GRDB
@testable import RelataCore
@testable import RelataSQLite

/// Turns a store file of the current format back into what format 6 wrote (one `relata_entity`
/// table with the to-one links in a binary column, one `relata_link` table), so tests can open
/// files of older formats made from real stores.
enum LegacyStoreFile {
    /// Rewrites the typed tables of the file at `path` as format 6's two tables, and sets its
    /// version to `version`. `module`, when given, is removed from every type name (as format 4
    /// and older stored them); `dropLog` removes the change log (older than format 6).
    static func downgrade(_ path: String, version: Int = 6, module: String? = nil, dropLog: Bool = false) async throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try await queue.write { db in
            try wholePayloads(db)
            func name(_ type: String) -> String { module.map { type.replacingOccurrences(of: $0 + ".", with: "") } ?? type }
            try db.execute(
                sql: """
                    CREATE TABLE relata_entity (type TEXT NOT NULL, id TEXT NOT NULL, payload BLOB NOT NULL, links BLOB, PRIMARY KEY (type, id)) WITHOUT ROWID;
                    CREATE TABLE relata_link (
                        type TEXT NOT NULL, relation TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, position TEXT, inverse_position TEXT,
                        PRIMARY KEY (type, relation, source, target)
                    ) WITHOUT ROWID;
                    """
            )
            let catalog = try Row.fetchAll(db, sql: "SELECT number, kind, type, relation FROM relata_table ORDER BY number")
            for entry in catalog where entry["kind"] as String == "entity" {
                let type: String = entry["type"], number: Int64 = entry["number"]
                let columns = catalog.filter { $0["kind"] as String == "to-one" && $0["type"] as String == type }
                for row in try Row.fetchAll(db, sql: "SELECT * FROM e\(number)") {
                    let links = columns.compactMap { column -> ToOneLinkRecord? in
                        let n: Int64 = column["number"]
                        guard let target: String = row["r\(n)"] else { return nil }
                        return ToOneLinkRecord(relation: column["relation"], target: target, inversePosition: row["r\(n)_inverse"])
                    }
                    try db.execute(
                        sql: "INSERT INTO relata_entity (type, id, payload, links) VALUES (?, ?, ?, ?)",
                        arguments: [name(type), row["id"] as String, row["payload"] as Data, links.isEmpty ? nil : linkColumn(links)]
                    )
                }
                try db.execute(sql: "DROP TABLE e\(number)")
            }
            for entry in catalog where entry["kind"] as String == "to-many" {
                let number: Int64 = entry["number"]
                try db.execute(
                    sql: "INSERT INTO relata_link SELECT ?, ?, source, target, position, inverse FROM l\(number)",
                    arguments: [name(entry["type"]), entry["relation"] as String]
                )
                try db.execute(sql: "DROP TABLE l\(number)")
            }
            try db.execute(
                sql: """
                    DROP TABLE relata_table; DROP TABLE relata_count;
                    DROP INDEX relata_dynamic_link_source; DROP INDEX relata_dynamic_link_target;
                    """
            )
            if dropLog { try db.execute(sql: "DROP TABLE relata_log") }
            try db.execute(sql: "UPDATE relata_meta SET value = ? WHERE key = 'version'", arguments: ["\(version)"])
        }
    }

    /// Turns a store file of the current format back into what format 7 wrote: each row's
    /// payload whole, no property columns.
    static func downgradeToVersion7(_ path: String) async throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try await queue.write { db in
            try wholePayloads(db)
            try db.execute(sql: "UPDATE relata_meta SET value = '7' WHERE key = 'version'")
        }
    }

    /// Turns a store file of the current format back into what format 9 wrote: no column of
    /// when each entity was last saved.
    static func downgradeToVersion9(_ path: String) async throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try await queue.write { db in
            try dropUpdatedAt(db)
            try db.execute(sql: "UPDATE relata_meta SET value = '9' WHERE key = 'version'")
        }
    }

    /// Drops each entity table's `updated_at` column and its index (format 10).
    static func dropUpdatedAt(_ db: Database) throws {
        for table in try String.fetchAll(db, sql: "SELECT 'e' || number FROM relata_table WHERE kind = 'entity'") {
            try db.execute(sql: "DROP INDEX IF EXISTS \(table)_updated; ALTER TABLE \(table) DROP COLUMN updated_at")
        }
    }

    /// Puts each row's property columns back into its payload, and drops the columns.
    static func wholePayloads(_ db: Database) throws {
        try dropUpdatedAt(db)
        // Format 7 had no views, indexes of declarations or full-text tables; they read the
        // columns dropped here.
        for view in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'") {
            try db.execute(sql: "DROP VIEW \(TableCatalog.quoted(view))")
        }
        for index in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND name GLOB 'e*_x_*'") {
            try db.execute(sql: "DROP INDEX \(index)")
        }
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'e*_fts_*_stats'") {
            try FullTextTable.drop(String(table.dropLast("_stats".count)), db)
        }
        let catalog = try Row.fetchAll(db, sql: "SELECT number, kind, type, relation FROM relata_table ORDER BY number")
        for entry in catalog where entry["kind"] as String == "entity" {
            let type: String = entry["type"], number: Int64 = entry["number"]
            let columns = catalog.filter { ($0["kind"] as String).hasPrefix("property ") && $0["type"] as String == type }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM e\(number)") {
                let properties = columns.compactMap { column -> PropertyEntry? in
                    let n: Int64 = column["number"]
                    let value: PropertyValue? =
                        switch (column["kind"] as String).dropFirst("property ".count) {
                        case "bool": (row["c\(n)"] as Int64?).map { .bool($0 != 0) }
                        case "integer": (row["c\(n)"] as Int64?).map { .int($0) }
                        case "unsigned": (row["c\(n)"] as String?).map { .uint(UInt64($0)!) }
                        case "real": (row["c\(n)"] as Double?).map { .double($0) }
                        case "text": (row["c\(n)"] as String?).map { .text($0) }
                        case "data": (row["c\(n)"] as Data?).map { .data($0) }
                        default: (row["c\(n)"] as String?).map { .json($0) }
                        }
                    return value.map { PropertyEntry(name: column["relation"], value: $0) }
                }
                let payload = try SplitPayload.assemble(rest: row["payload"], properties: properties)
                try db.execute(sql: "UPDATE e\(number) SET payload = ? WHERE id = ?", arguments: [payload, row["id"] as String])
            }
            for column in columns { try db.execute(sql: "ALTER TABLE e\(number) DROP COLUMN c\(column["number"] as Int64)") }
        }
        try db.execute(sql: "DELETE FROM relata_table WHERE kind LIKE 'property %'")
        try db.execute(sql: "DELETE FROM relata_meta WHERE key IN ('columns_table', 'columns_after')")
    }

    /// `links` in format 6's link column: version 1, a varint count, then per link the relation,
    /// the target and the inverse position (0, or 1 and the text), each text a varint byte count
    /// and UTF-8.
    static func linkColumn(_ links: [ToOneLinkRecord]) -> Data {
        var bytes: [UInt8] = [1]
        func varint(_ value: Int) {
            var value = UInt64(value)
            while value >= 0x80 {
                bytes.append(UInt8(value & 0x7f) | 0x80)
                value >>= 7
            }
            bytes.append(UInt8(value))
        }
        func text(_ text: String) {
            varint(text.utf8.count)
            bytes += text.utf8
        }
        varint(links.count)
        for link in links {
            text(link.relation)
            text(link.target)
            if let position = link.inversePosition {
                bytes.append(1)
                text(position)
            } else {
                bytes.append(0)
            }
        }
        return Data(bytes)
    }

    /// The types whose tables (entity or link tables) hold rows, in a current-format file.
    static func typesWithRows(_ db: Database) throws -> Set<String> {
        var types = Set<String>()
        for entry in try Row.fetchAll(db, sql: "SELECT number, kind, type FROM relata_table WHERE kind IN ('entity', 'to-many')") {
            let number: Int64 = entry["number"]
            let table = (entry["kind"] as String == "entity" ? "e" : "l") + "\(number)"
            if try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 > 0 { types.insert(entry["type"]) }
        }
        return types
    }

    /// What the upgrade tests store before turning a store into an older format: a chat with two
    /// members, four messages with authors and a reader, one moved to the front of the chat.
    static func saveUpgradeFixture(_ context: inout Context) throws {
        try Chat(id: "c", users: .relation([User(id: "1", name: "Ann"), User(id: "2", name: "Bo")])).save(to: &context)
        for i in 1...4 {
            try Message(id: "m\(i)", text: "t\(i)", author: .id(i % 2 == 0 ? "1" : "2"), chat: .id("c"), viewedBy: .ids(["2"])).save(to: &context)
        }
        try Chat(id: "c").move("m4", in: \.$messages, to: 0, in: &context)
    }

    /// The table of `type`'s entities in a current-format file.
    static func entityTable(_ db: Database, _ type: String) throws -> String? {
        try Int64.fetchOne(db, sql: "SELECT number FROM relata_table WHERE kind = 'entity' AND type = ?", arguments: [type]).map { "e\($0)" }
    }
}
