import Foundation
import Relata
@testable import RelataCore
import RelataPostgres
import Testing

/// A PostgreSQL schema of version 1 (format 6's tables: `relata_entity` with the to-one links in
/// a binary column, `relata_link`) is upgraded to typed tables once, when a store opens it; one of
/// version 2 (whole payloads) gets its properties moved into typed columns.
@Suite("PostgreSQL store: upgrades", .timeLimit(.minutes(2)))
struct PostgresUpgradeTests {
    @Test("A version 1 schema opens with every entity, to-one and to-many link and position it held, and is version 5 after")
    func upgradesVersion1() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        // The rows of a real store, as the in-memory backend keeps them.
        let memory = InMemoryBackend()
        let original = try await Store(backend: memory, schema: StoreHarness.schema)
        try await original.write { try LegacyStoreFile.saveUpgradeFixture(&$0) }
        let expected = StoreConformanceTests.dumped(original.context)
        try await original.close()
        var entities: [EntityRecord] = [], links: [LinkRecord] = []
        try memory.load(entities: { entities.append($0) }, links: { links.append($0) }, dynamicLinks: { _ in })
        #expect(entities.contains { !$0.toOne.isEmpty } && links.contains { $0.inversePosition != nil })

        let schema = PostgresStoreTests.schema()
        func text(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }
        func bytes(_ data: Data) -> String { "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea" }
        var sql = """
            CREATE SCHEMA "\(schema)";
            CREATE TABLE "\(schema)".relata_meta (key text PRIMARY KEY, value text NOT NULL);
            INSERT INTO "\(schema)".relata_meta VALUES ('format', 'relata'), ('version', '1');
            CREATE TABLE "\(schema)".relata_entity (type text NOT NULL, id text NOT NULL, payload bytea NOT NULL, links bytea, PRIMARY KEY (type, id));
            CREATE TABLE "\(schema)".relata_link (type text NOT NULL, relation text NOT NULL, source text NOT NULL, target text NOT NULL,
                position text, inverse_position text, PRIMARY KEY (type, relation, source, target));
            CREATE TABLE "\(schema)".relata_dynamic_link (kind text NOT NULL, source_type text NOT NULL, source text NOT NULL,
                target_type text NOT NULL, target text NOT NULL, PRIMARY KEY (kind, source_type, source, target_type, target));
            CREATE TABLE "\(schema)".relata_log (seq bigserial PRIMARY KEY, origin text NOT NULL, at double precision NOT NULL, record bytea NOT NULL);

            """
        for record in entities {
            let column = record.toOne.isEmpty ? "NULL" : bytes(LegacyStoreFile.linkColumn(record.toOne))
            sql += "INSERT INTO \"\(schema)\".relata_entity VALUES (\(text(record.type)), \(text(record.id)), \(bytes(record.payload)), \(column));\n"
        }
        for link in links {
            let position = link.position.map(text) ?? "NULL", inverse = link.inversePosition.map(text) ?? "NULL"
            sql += "INSERT INTO \"\(schema)\".relata_link VALUES (\(text(link.type)), \(text(link.relation)), \(text(link.source)), \(text(link.target)), \(position), \(inverse));\n"
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relata-v1-\(UUID().uuidString).sql")
        try sql.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ShellCommand.run("psql '\(url)' -q -v ON_ERROR_STOP=1 -f '\(file.path)'") == 0)

        let configuration = PostgresBackend.Configuration(schema: schema)
        let upgraded = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: StoreHarness.schema, followInterval: nil)
        #expect(StoreConformanceTests.dumped(upgraded.context) == expected)
        try upgraded.context.checkInvariants()
        // A write after the upgrade, then a second open: the typed tables are the store now.
        try await upgraded.write { try Message(id: "m9", text: "new", author: .id("2"), chat: .id("c")).save(to: &$0) }
        try await upgraded.close()
        let again = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: StoreHarness.schema, followInterval: nil)
        #expect(again.context.ids(of: "c", \Chat.$messages) == ["m4", "m1", "m2", "m3", "m9"])
        #expect(again.context.ids(of: "m9", \Message.$author) == ["2"])
        #expect(again.context.sources(linkingTo: "2", through: \Message.$viewedBy) == ["m1", "m2", "m3", "m4"])
        try await again.close()
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("relata-v1-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: probe) }
        _ = try ShellCommand.run(
            "psql '\(url)' -tAc \"SELECT (SELECT value FROM \\\"\(schema)\\\".relata_meta WHERE key = 'version') || ' ' || (pg_catalog.to_regclass('\\\"\(schema)\\\".relata_entity') IS NULL)\" > '\(probe.path)'"
        )
        #expect(try String(contentsOf: probe, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == "5 true", "version 5, the old tables gone")
        _ = try ShellCommand.run("psql '\(url)' -qc 'DROP SCHEMA \"\(schema)\" CASCADE'")
    }

    /// The rows `psql` prints for `query` (`-tA`: fields split by `|`).
    static func psql(_ url: String, _ query: String) throws -> [[String]] {
        let probe = FileManager.default.temporaryDirectory.appendingPathComponent("relata-psql-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: probe) }
        #expect(try ShellCommand.run("psql '\(url)' -v ON_ERROR_STOP=1 -tAc \"\(query.replacingOccurrences(of: "\"", with: "\\\""))\" > '\(probe.path)'") == 0)
        return try String(contentsOf: probe, encoding: .utf8).split(separator: "\n").map { $0.split(separator: "|", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test("A version 2 schema (whole payloads) opens with every entity as it was, its properties moved into typed columns, and is version 5 after")
    func upgradesVersion2() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let memory = InMemoryBackend()
        let original = try await Store(backend: memory, schema: StoreHarness.schema)
        try await original.write { try LegacyStoreFile.saveUpgradeFixture(&$0) }
        try await original.close()
        var entities: [EntityRecord] = []
        try memory.load(entities: { entities.append($0) }, links: { _ in }, dynamicLinks: { _ in })

        let schema = PostgresStoreTests.schema()
        let configuration = PostgresBackend.Configuration(schema: schema)
        let made = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: StoreHarness.schema, followInterval: nil)
        try await made.write { try LegacyStoreFile.saveUpgradeFixture(&$0) }
        // The same entities as in memory (positions are drawn afresh by each store).
        let expected = StoreConformanceTests.dumped(made.context)
        try await made.close()
        // Back to version 2: each row's payload whole, no property columns.
        let q = "\"\(schema)\""
        let tables = Dictionary(uniqueKeysWithValues: try Self.psql(url, "SELECT type, number FROM \(q).relata_table WHERE kind = 'entity'").map { ($0[0], "e" + $0[1]) })
        func text(_ value: String) -> String { "'" + value.replacingOccurrences(of: "'", with: "''") + "'" }
        func bytes(_ data: Data) -> String { "'\\x" + data.map { String(format: "%02x", $0) }.joined() + "'::bytea" }
        var sql = ""
        for record in entities where record.hasEntity {
            sql += "UPDATE \(q).\(try #require(tables[record.type])) SET payload = \(bytes(record.payload)) WHERE id = \(text(record.id));\n"
        }
        let columns = try Self.psql(url, "SELECT type, number FROM \(q).relata_table WHERE kind LIKE 'property %'")
        #expect(!columns.isEmpty, "the store made property columns")
        for column in columns { sql += "ALTER TABLE \(q).\(try #require(tables[column[0]])) DROP COLUMN c\(column[1]) CASCADE;\n" }
        // Nor the column of when each entity was saved (version 4).
        for table in Set(tables.values) { sql += "ALTER TABLE \(q).\(table) DROP COLUMN updated_at CASCADE;\n" }
        // And the index of the log's times versions 2–4 kept.
        sql += "CREATE INDEX relata_log_at ON \(q).relata_log (at);\n"
        sql += "DELETE FROM \(q).relata_table WHERE kind LIKE 'property %';\nUPDATE \(q).relata_meta SET value = '2' WHERE key = 'version';\n"
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("relata-v2-\(UUID().uuidString).sql")
        try sql.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try ShellCommand.run("psql '\(url)' -q -v ON_ERROR_STOP=1 -f '\(file.path)'") == 0)

        let upgraded = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: StoreHarness.schema, followInterval: nil)
        #expect(StoreConformanceTests.dumped(upgraded.context) == expected)
        try await upgraded.close()
        let messages = try #require(tables[EntitySchema.storageName(of: Message.self)])
        let text = try #require(try Self.psql(url, "SELECT number FROM \(q).relata_table WHERE kind = 'property text' AND relation = 'text'").first?.first)
        #expect(try Self.psql(url, "SELECT count(*) FROM \(q).\(messages) WHERE c\(text) IS NOT NULL") == [["4"]], "every message's text in its column")
        let view = "\(q).\"\(EntitySchema.storageName(of: Message.self))\""
        #expect(try Self.psql(url, "SELECT id, text, author FROM \(view) ORDER BY id") == [["m1", "t1", "2"], ["m2", "t2", "1"], ["m3", "t3", "2"], ["m4", "t4", "1"]], "a view per type, a column per property and to-one relation")
        #expect(try Self.psql(url, "SELECT value FROM \(q).relata_meta WHERE key IN ('version', 'columns_table') ORDER BY key") == [["5"]], "version 5, no marker left")
        #expect(try Self.psql(url, "SELECT pg_catalog.to_regclass('\(q).relata_log_at') IS NULL") == [["t"]], "the log's time index dropped")
        _ = try ShellCommand.run("psql '\(url)' -qc 'DROP SCHEMA \(q.replacingOccurrences(of: "\"", with: "\\\"")) CASCADE'")
    }
}
