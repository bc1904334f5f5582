import Logging
import PostgresNIO
import RelataCore

/// The tables of a PostgreSQL store, in one schema, and the advisory lock key of its writers.
struct PostgresSchema: Sendable {
    static let format = "relata"
    /// 1: the tables of SQLite format 6 (entities, links, dynamic links, change log).
    static let version = 1

    let schema: String
    let meta: String, entity: String, link: String, dynamicLink: String, log: String
    /// The `NOTIFY` channel of this schema's commits.
    let channel: String
    /// The `pg_advisory_xact_lock` key of this schema's writers.
    let lockKey: Int64

    init(schema: String) throws {
        guard let first = schema.unicodeScalars.first, first == "_" || first.properties.isAlphabetic, schema.count <= 48,
            schema.unicodeScalars.allSatisfy({ $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) })
        else {
            throw RelataError(code: .storageFailed, entityType: "Store", message: "schema name \"\(schema)\" must be letters, digits and _")
        }
        self.schema = schema
        let prefix = "\"\(schema)\"."
        meta = prefix + "relata_meta"
        entity = prefix + "relata_entity"
        link = prefix + "relata_link"
        dynamicLink = prefix + "relata_dynamic_link"
        log = prefix + "relata_log"
        channel = "relata_\(schema)"
        // FNV-1a of the schema name: one lock per store, the same in every process.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "relata:\(schema)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        lockKey = Int64(bitPattern: hash)
    }

    /// Creates the schema and tables when missing, under the writers' lock (two processes opening
    /// a new database at once create them once); refuses a schema of another application or of a
    /// newer format.
    func create(on connection: PostgresConnection, logger: Logger) throws {
        _ = try connection.query("BEGIN", logger: logger).answer(from: connection)
        do {
            _ = try connection.query("SELECT pg_catalog.pg_advisory_xact_lock(\(lockKey))", logger: logger).answer(from: connection)
            for statement in [
                "CREATE SCHEMA IF NOT EXISTS \"\(schema)\"",
                "CREATE TABLE IF NOT EXISTS \(meta) (key text PRIMARY KEY, value text NOT NULL)",
                "CREATE TABLE IF NOT EXISTS \(entity) (type text NOT NULL, id text NOT NULL, payload bytea NOT NULL, links bytea, PRIMARY KEY (type, id))",
                """
                CREATE TABLE IF NOT EXISTS \(link) (type text NOT NULL, relation text NOT NULL, source text NOT NULL, target text NOT NULL, \
                position text, inverse_position text, PRIMARY KEY (type, relation, source, target))
                """,
                """
                CREATE TABLE IF NOT EXISTS \(dynamicLink) (kind text NOT NULL, source_type text NOT NULL, source text NOT NULL, \
                target_type text NOT NULL, target text NOT NULL, PRIMARY KEY (kind, source_type, source, target_type, target))
                """,
                "CREATE TABLE IF NOT EXISTS \(log) (seq bigserial PRIMARY KEY, origin text NOT NULL, at double precision NOT NULL, record bytea NOT NULL)",
            ] {
                _ = try connection.query(PostgresQuery(unsafeSQL: statement), logger: logger).answer(from: connection)
            }
            let rows = try connection.query(PostgresQuery(unsafeSQL: "SELECT key, value FROM \(meta)"), logger: logger).answer(from: connection).rows
            var found: [String: String] = [:]
            for row in rows {
                let (key, value) = try row.decode((String, String).self)
                found[key] = value
            }
            if found.isEmpty {
                _ = try connection.query(
                    PostgresQuery(unsafeSQL: "INSERT INTO \(meta) (key, value) VALUES ('format', '\(Self.format)'), ('version', '\(Self.version)')"),
                    logger: logger
                ).answer(from: connection)
            } else if found["format"] != Self.format {
                throw RelataError(code: .notAStore, entityType: "Store", message: "schema \(schema) holds tables of another application")
            } else if let version = found["version"].flatMap(Int.init), version > Self.version {
                throw RelataError(
                    code: .notAStore, entityType: "Store",
                    message: "schema \(schema) is a Relata store of version \(version), newer than this library (\(Self.version))"
                )
            }
            _ = try connection.query("COMMIT", logger: logger).answer(from: connection)
        } catch {
            _ = try? connection.query("ROLLBACK", logger: logger).answer(from: connection)
            throw error
        }
    }
}
