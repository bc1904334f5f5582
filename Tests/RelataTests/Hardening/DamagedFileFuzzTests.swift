import ChatExample
import Foundation
import GRDB
import Relata
import RelataCore
import Testing

/// A crafted or damaged store file never stops the process: every way of damaging a real store
/// (NULLs, values of other types, truncated and random blobs in payloads, link columns and log
/// records, deleted meta rows, damaged pages) gives a typed error or a correct load — at open, at
/// a write and at a catch-up — and a refused open leaves the file byte for byte as it was.
@Suite("Hardening: damaged store files (fuzz)", .serialized, .timeLimit(.minutes(10)))
struct DamagedFileFuzzTests {
    typealias User = ChatExample.User
    typealias Chat = ChatExample.Chat
    typealias Message = ChatExample.Message
    typealias Attachment = ChatExample.Attachment
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// A table of the file: its columns (and whether they hold bytes: payloads, records), the
    /// columns that stay unique when it is loosened (what the store's upserts conflict on), and,
    /// for an entity or link table, the type and relation it holds.
    struct Table {
        var name: String
        var columns: [(name: String, blob: Bool)]
        var unique: [String] = []
        var type: String? = nil
        var relation: String? = nil
    }

    /// The tables of the store file open in `db`, read from its catalog.
    static func tables(_ db: Database) throws -> [Table] {
        var typed: [Table] = []
        let tables = [
            Table(name: "relata_meta", columns: [("key", false), ("value", false)]),
            Table(name: "relata_table", columns: [("number", false), ("kind", false), ("type", false), ("relation", false)]),
            Table(name: "relata_count", columns: [("number", false), ("count", false)]),
            Table(name: "relata_dynamic_link", columns: [("kind", false), ("source_type", false), ("source", false), ("target_type", false), ("target", false)]),
            Table(name: "relata_log", columns: [("origin", false), ("at", false), ("record", true)]),
        ]
        for entry in try Row.fetchAll(db, sql: "SELECT number, kind, type, relation FROM relata_table WHERE kind IN ('entity', 'to-many')") {
            let number: Int64 = entry["number"], isEntity = entry["kind"] as String == "entity"
            let name = (isEntity ? "e" : "l") + "\(number)"
            let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(name))").map { column -> (String, Bool) in
                let name: String = column["name"]
                return (name, name == "payload")
            }
            typed.append(Table(name: name, columns: columns, unique: isEntity ? ["id"] : ["source", "target"], type: entry["type"], relation: isEntity ? nil : entry["relation"]))
        }
        // Typed tables first: loosening one drops its count triggers, which name relata_count.
        return typed + tables
    }

    /// A real store: users, chats with members and admins, messages, attachments, dynamic
    /// relationships, a few commits in the log.
    static func makeStore(at path: String) async throws {
        let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
        try await store.write { context in
            for u in 0..<4 { try User(id: "u\(u)", name: "User \(u)").save(to: &context) }
            for c in 0..<3 {
                try Chat(id: "c\(c)", users: .ids(["u0", "u1", "u\(c + 1)"]), admins: .ids(["u\(c)"])).save(to: &context)
            }
        }
        for round in 0..<3 {
            try await store.write { context in
                for m in 0..<5 {
                    let id = "m\(round)-\(m)"
                    try Message(id: id, text: "text \(m)", author: .id("u\(m % 4)"), chat: .id("c\(m % 3)")).save(to: &context)
                    if m % 2 == 0 {
                        try Attachment(id: "a\(round)-\(m)", kind: .file(url: URL(string: "https://example.com/\(m)")!), message: .id(id)).save(to: &context)
                    }
                }
                try context.relate(EntityReference(User.self, id: "u0"), .owns, EntityReference(Message.self, id: "m\(round)-1"))
                try context.relate(EntityReference(User.self, id: "u1"), .free, EntityReference(Chat.self, id: "c\(round)"))
            }
        }
        try await store.close()
    }

    /// One damage: SQL run on the file, after its tables lost their column types and constraints
    /// (a crafted file may hold anything in any column).
    struct Damage: CustomStringConvertible {
        let sql: [String]
        var description: String { sql.joined(separator: "; ") }
    }

    /// Replaces every Relata table by one without types or constraints (but the uniqueness the
    /// store's upserts need), holding the same rows.
    static func loosen(_ db: Database, _ tables: [Table]) throws {
        // The views named after types read the tables replaced here.
        for view in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'view'") {
            try db.execute(sql: "DROP VIEW \(TableCatalog.quoted(view))")
        }
        for table in tables {
            let names = (table.name == "relata_log" ? ["seq"] : []) + table.columns.map(\.name)
            let list = names.joined(separator: ", ")
            var key = table.name == "relata_log" ? "seq INTEGER PRIMARY KEY AUTOINCREMENT, " + table.columns.map(\.name).joined(separator: ", ") : list
            if !table.unique.isEmpty { key += ", UNIQUE (\(table.unique.joined(separator: ", ")))" }
            try db.execute(sql: "CREATE TABLE loose (\(key))")
            try db.execute(sql: "INSERT INTO loose (\(list)) SELECT \(list) FROM \(table.name)")
            try db.execute(sql: "DROP TABLE \(table.name)")
            try db.execute(sql: "ALTER TABLE loose RENAME TO \(table.name)")
        }
    }

    /// A random damage of rows.
    static func rowDamage(_ tables: [Table], _ random: inout SeededGenerator) -> Damage {
        let table = tables.randomElement(using: &random)!
        let (column, blob) = table.columns.randomElement(using: &random)!
        let row = "rowid IN (SELECT rowid FROM \(table.name) ORDER BY random() LIMIT \(Int.random(in: 1...3, using: &random)))"
        let bytes = (0..<Int.random(in: 0...40, using: &random)).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &random)) }.joined()
        let value: String =
            switch Int.random(in: 0..<11, using: &random) {
            case 0: "NULL"
            case 1: "42"
            // The extreme integers: every number read from a file is checked before arithmetic.
            case 9: "9223372036854775807"
            case 10: "-9223372036854775808"
            case 2: "-1.5"
            case 3: "x'\(bytes)'"
            case 4: "'\(bytes)'"
            case 5: blob ? "substr(\(column), 1, \(Int.random(in: 0...12, using: &random)))" : "''"
            case 6: blob ? "\(column) || x'\(bytes)'" : "\(column) || 'x'"
            case 7: "zeroblob(\(Int.random(in: 0...64, using: &random)))"
            default: blob ? "randomblob(length(\(column)))" : "'b' || \(column)"
            }
        return Damage(sql: ["UPDATE \(table.name) SET \(column) = \(value) WHERE \(row)"])
    }

    /// A random damage of the store as a whole: meta rows, the catalog, whole tables, the log.
    static func storeDamage(_ tables: [Table], _ random: inout SeededGenerator) -> Damage {
        let entity = tables.filter { $0.type != nil && $0.relation == nil }.randomElement(using: &random)!.name
        let link = tables.filter { $0.relation != nil }.randomElement(using: &random)!
        let choices: [[String]] = [
            ["DELETE FROM relata_meta WHERE key = 'format'"],
            ["DELETE FROM relata_meta WHERE key = 'version'"],
            ["DELETE FROM relata_meta"],
            ["UPDATE relata_meta SET value = NULL WHERE key = 'format'"],
            ["UPDATE relata_meta SET value = 'abc' WHERE key = 'version'"],
            ["UPDATE relata_meta SET value = '999' WHERE key = 'version'"],
            ["DELETE FROM relata_log"],
            ["UPDATE relata_log SET seq = seq + 1000 WHERE seq = (SELECT min(seq) FROM relata_log)"],
            ["INSERT INTO relata_log (origin, at, record) VALUES (NULL, NULL, NULL)"],
            // Rows of a relation and of a type the model does not have.
            ["INSERT INTO relata_table VALUES (900, 'to-many', '\(link.type!)', 'nope')", "CREATE TABLE l900 AS SELECT * FROM \(link.name)"],
            ["INSERT INTO relata_table VALUES (901, 'entity', 'Nobody', '')", "CREATE TABLE e901 AS SELECT id, payload FROM \(entity)"],
            ["INSERT INTO \(link.name) (source, target, position, inverse) SELECT source, 'missing', 'a0', NULL FROM \(link.name) LIMIT 2"],
            ["INSERT INTO relata_dynamic_link SELECT 'weird', source_type, source, target_type, target FROM relata_dynamic_link LIMIT 1"],
            ["DELETE FROM \(entity) WHERE rowid IN (SELECT rowid FROM \(entity) ORDER BY random() LIMIT 3)"],
            // The catalog and the tables disagree.
            ["DROP TABLE \(entity)"],
            ["DELETE FROM relata_table WHERE kind = 'to-one'"],
            ["UPDATE relata_table SET kind = 'weird' WHERE number = (SELECT max(number) FROM relata_table)"],
            ["UPDATE relata_table SET number = 1 WHERE number = (SELECT max(number) FROM relata_table)"],
        ] + Self.extremeNumbers
        return Damage(sql: choices.randomElement(using: &random)!)
    }

    /// Numbers at the ends of `Int64` where the store reads numbers: log sequences, catalog
    /// numbers, counts.
    static let extremeNumbers: [[String]] = [
        ["UPDATE relata_log SET seq = -9223372036854775808 WHERE seq = (SELECT min(seq) FROM relata_log)"],
        ["UPDATE relata_log SET seq = 9223372036854775807 WHERE seq = (SELECT max(seq) FROM relata_log)"],
        ["UPDATE relata_log SET seq = 0 WHERE seq = (SELECT min(seq) FROM relata_log)"],
        ["UPDATE relata_table SET number = 9223372036854775807 WHERE number = (SELECT max(number) FROM relata_table)"],
        ["UPDATE relata_table SET number = -9223372036854775808 WHERE number = (SELECT min(number) FROM relata_table)"],
        ["INSERT INTO relata_table VALUES (9223372036854775807, 'entity', 'Nobody', '')"],
        ["UPDATE relata_count SET count = 9223372036854775807"],
        ["UPDATE relata_count SET count = -9223372036854775808"],
    ]

    /// Overwrites `count` random bytes of the file at random places (after its header), or cuts it.
    static func damagePages(_ path: String, _ random: inout SeededGenerator) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        if Bool.random(using: &random) {
            let length = Int.random(in: 100..<bytes.count, using: &random)
            bytes = bytes.prefix(length)
            try bytes.write(to: URL(fileURLWithPath: path))
            return "cut to \(length) bytes"
        }
        let count = Int.random(in: 1...64, using: &random)
        for _ in 0..<count { bytes[Int.random(in: 100..<bytes.count, using: &random)] = UInt8.random(in: 0...255, using: &random) }
        try bytes.write(to: URL(fileURLWithPath: path))
        return "\(count) random bytes"
    }

    /// Opens `path`, writes and closes: a typed error or success, never a signal. Returns what happened.
    static func exercise(_ path: String) async -> String {
        do {
            let store = try await Store(backend: SQLiteBackend(path: path, busyTimeout: .seconds(2)), schema: schema, followInterval: nil)
            do {
                try await store.write { context in
                    try User(id: "new", name: "N").save(to: &context)
                    try Chat(id: "c0", users: .ids(["new"])).save(to: &context)
                }
                try await store.refresh()
                try? store.context.checkInvariants()
            } catch let error as RelataError {
                try? await store.close()
                return "opened, then \(error.code)"
            } catch {
                Issue.record("not a RelataError: \(error)")
            }
            try? await store.close()
            return "opened"
        } catch let error as RelataError {
            return "refused: \(error.code)"
        } catch {
            Issue.record("not a RelataError: \(type(of: error)) \(error)")
            return "untyped"
        }
    }

    @Test("Damaged rows, meta rows, logs and pages: open and write give a typed error or a correct load; a refused open leaves the file as it was")
    func damagedFiles() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pristine = directory.appendingPathComponent("pristine.sqlite").path
        try await Self.makeStore(at: pristine)
        let tables = try await DatabaseQueue(path: pristine).read(Self.tables)
        var random = SeededGenerator(seed: 0xF0_22)
        var outcomes: [String: Int] = [:]
        let rounds = SeededGenerator.rounds(normal: 90, long: 3_000)
        for round in 0..<rounds {
            let path = directory.appendingPathComponent("case-\(round).sqlite").path
            try FileManager.default.copyItem(atPath: pristine, toPath: path)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let what: String
            if round % 6 == 5 {
                what = try Self.damagePages(path, &random)
            } else {
                let damage = round % 3 == 2 ? Self.storeDamage(tables, &random) : Self.rowDamage(tables, &random)
                let queue = try DatabaseQueue(path: path)
                try await queue.write { db in
                    try Self.loosen(db, tables)
                    // A damage the kept uniqueness refuses leaves the file as it was.
                    for statement in damage.sql { try? db.execute(sql: statement) }
                }
                try queue.close()
                what = damage.description
            }
            let before = try Data(contentsOf: URL(fileURLWithPath: path))
            let outcome = await Self.exercise(path)
            outcomes[outcome, default: 0] += 1
            if outcome.hasPrefix("refused") {
                let after = try Data(contentsOf: URL(fileURLWithPath: path))
                #expect(after == before, "a refused open (\(outcome)) changed the file: \(what)")
            }
        }
        print("damaged files: \(rounds) cases, outcomes \(outcomes.sorted { $0.key < $1.key })")
        #expect(outcomes.values.reduce(0, +) == rounds)
    }

    @Test("Rows damaged under an open store: its catch-up and its writes give a typed error or a correct state, and say so")
    func damagedUnderOpenStore() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-fuzz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let pristine = directory.appendingPathComponent("pristine.sqlite").path
        try await Self.makeStore(at: pristine)
        let tables = try await DatabaseQueue(path: pristine).read(Self.tables)
        var random = SeededGenerator(seed: 0xCA7C)
        var outcomes: [String: Int] = [:]
        let rounds = SeededGenerator.rounds(normal: 40, long: 1_000)
        for round in 0..<rounds {
            let path = directory.appendingPathComponent("live-\(round).sqlite").path
            try FileManager.default.copyItem(atPath: pristine, toPath: path)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let queue = try DatabaseQueue(path: path)
            try await queue.write { db in try Self.loosen(db, tables) }
            let store = try await Store(backend: SQLiteBackend(path: path, busyTimeout: .seconds(2)), schema: Self.schema, followInterval: nil)
            // Another connection damages rows, then commits as a store would: a log record that
            // touches every row, so the catch-up reads them all.
            let damage = round % 2 == 0 ? Self.rowDamage(tables, &random) : Self.storeDamage(tables, &random)
            let everything = try await queue.write { db -> Data in
                var changes = StoreChanges()
                for table in tables where table.type != nil {
                    if let relation = table.relation {
                        for row in try Row.fetchAll(db, sql: "SELECT source, target FROM \(table.name)") {
                            let text = (0..<2).map { try? row.decode(String.self, atIndex: $0) }
                            if let source = text[0], let target = text[1] {
                                changes.deletedLinks.append(LinkKey(type: table.type!, relation: relation, source: source, target: target))
                            }
                        }
                    } else {
                        for row in try Row.fetchAll(db, sql: "SELECT id FROM \(table.name)") {
                            if let id = try? row.decode(String.self, atIndex: 0) { changes.deletedEntities.append(EntityKey(type: table.type!, id: id)) }
                        }
                    }
                }
                for row in try Row.fetchAll(db, sql: "SELECT kind, source_type, source, target_type, target FROM relata_dynamic_link") {
                    let text = (0..<5).compactMap { try? row.decode(String.self, atIndex: $0) }
                    if text.count == 5 {
                        changes.deletedDynamicLinks.append(
                            DynamicLinkRecord(kind: text[0], sourceType: text[1], source: text[2], targetType: text[3], target: text[4])
                        )
                    }
                }
                for statement in damage.sql { try? db.execute(sql: statement) }
                let previous = try Int64.fetchOne(db, sql: "SELECT max(seq) FROM relata_log") ?? 0
                return StoredChangeLogRecord(ChangeLogRecord(touching: changes), after: previous).encoded()
            }
            try await queue.write { db in
                try db.execute(sql: "INSERT INTO relata_log (origin, at, record) VALUES ('other', 0, ?)", arguments: [everything])
            }
            try queue.close()
            var outcome: String
            do {
                try await store.refresh()
                outcome = "caught up"
            } catch let error as RelataError {
                outcome = "refresh: \(error.code)"
                #expect(store.followError != nil, "the failure is visible: \(damage)")
            }
            do {
                try await store.write { try User(id: "w", name: "W").save(to: &$0) }
                outcome += ", wrote"
            } catch let error as RelataError {
                outcome += ", write: \(error.code)"
            }
            outcomes[outcome, default: 0] += 1
            try? await store.close()
        }
        print("damaged under an open store: \(rounds) cases, outcomes \(outcomes.sorted { $0.key < $1.key })")
    }
}
