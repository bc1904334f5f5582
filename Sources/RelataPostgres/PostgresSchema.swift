import Logging
import PostgresNIO
import RelataCore

/// The tables of a PostgreSQL store, in one schema, and the advisory lock key of its writers.
struct PostgresSchema: Sendable {
    static let format = "relata"
    /// 1: the tables of SQLite format 6 (entities, links, dynamic links, change log); 2: those of
    /// SQLite format 7 — a table per entity type with its to-one links in indexed columns, a
    /// link table per to-many relation indexed from both ends, counts kept by triggers (see
    /// ``TableCatalog``); a version 1 schema's rows move there once, under the writers' lock;
    /// 3: each stored property in a typed column of its own (`c<n>`, see `SplitPayload`), the
    /// rows of a version 2 schema moved there in batches after the open, resumed if interrupted;
    /// 4: when each entity was last saved, in its row (`updated_at`, indexed; NULL in the rows of
    /// older schemas until their entity is saved again); 5: no index of the log's times
    /// (`relata_log_at`, dropped: pruning reads the expired records from the oldest, see
    /// `LogRetention`, and every commit wrote the index).
    static let version = 5

    let schema: String
    let meta: String, catalog: String, count: String, dynamicLink: String, log: String
    /// The tables of version 1, read once by the upgrade.
    let legacyEntity: String, legacyLink: String
    /// The trigger function that keeps `relata_count`.
    let countFunction: String
    /// `relata_write_start(lock_key)`: a write's lock and the log's bounds as of after it, in one
    /// statement (see ``writeStartFunctionSQL``).
    let writeStartFunction: String
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
        catalog = prefix + "relata_table"
        count = prefix + "relata_count"
        countFunction = prefix + "relata_count_rows"
        writeStartFunction = prefix + "relata_write_start"
        legacyEntity = prefix + "relata_entity"
        legacyLink = prefix + "relata_link"
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
    /// newer format. A schema of this version, with its indexes and no upgrade under way, is
    /// left as it is, found so in one round trip without the lock (an open then waits for no
    /// writer).
    func create(on connection: PostgresConnection, logger: Logger) throws {
        if (try? isCurrent(on: connection, logger: logger)) == true { return }
        _ = try connection.query("BEGIN", logger: logger).answer(from: connection)
        do {
            _ = try connection.query("SELECT pg_catalog.pg_advisory_xact_lock(\(lockKey))", logger: logger).answer(from: connection)
            for statement in [
                "CREATE SCHEMA IF NOT EXISTS \"\(schema)\"",
                "CREATE TABLE IF NOT EXISTS \(meta) (key text PRIMARY KEY, value text NOT NULL)",
                """
                CREATE TABLE IF NOT EXISTS \(dynamicLink) (kind text NOT NULL, source_type text NOT NULL, source text NOT NULL, \
                target_type text NOT NULL, target text NOT NULL, PRIMARY KEY (kind, source_type, source, target_type, target))
                """,
                "CREATE TABLE IF NOT EXISTS \(log) (seq bigserial PRIMARY KEY, origin text NOT NULL, at double precision NOT NULL, record bytea NOT NULL)",
                """
                CREATE TABLE IF NOT EXISTS \(catalog) (number int8 PRIMARY KEY, kind text NOT NULL, type text NOT NULL, relation text NOT NULL, \
                UNIQUE (kind, type, relation))
                """,
                "CREATE TABLE IF NOT EXISTS \(count) (number int8 PRIMARY KEY, count int8 NOT NULL)",
                "CREATE INDEX IF NOT EXISTS relata_dynamic_link_source ON \(dynamicLink) (source_type, source)",
                "CREATE INDEX IF NOT EXISTS relata_dynamic_link_target ON \(dynamicLink) (target_type, target)",
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
                _ = try connection.query(PostgresQuery(unsafeSQL: countFunctionSQL), logger: logger).answer(from: connection)
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
            } else if let version = found["version"].flatMap(Int.init), version < Self.version {
                let execute: PostgresExecute = { query in try connection.query(query, logger: logger).answer(from: connection).rows }
                if version < 2 {
                    _ = try connection.query(PostgresQuery(unsafeSQL: countFunctionSQL), logger: logger).answer(from: connection)
                    try upgradeToTypedTables(execute)
                } else {
                    if version == 2 { try markPropertyColumnsUpgrade(execute) }
                    for (_, table) in try catalog(execute).entityTypes { try addUpdatedAt(to: table, execute) }
                }
                _ = try execute(PostgresQuery(unsafeSQL: "DROP INDEX IF EXISTS \"\(schema)\".relata_log_at"))
                _ = try connection.query(
                    PostgresQuery(unsafeSQL: "UPDATE \(meta) SET value = '\(Self.version)' WHERE key = 'version'"), logger: logger
                ).answer(from: connection)
            }
            // Made or replaced whatever the version: a schema an earlier library made lacks it.
            _ = try connection.query(PostgresQuery(unsafeSQL: writeStartFunctionSQL), logger: logger).answer(from: connection)
            _ = try connection.query("COMMIT", logger: logger).answer(from: connection)
        } catch {
            _ = try? connection.query("ROLLBACK", logger: logger).answer(from: connection)
            throw error
        }
        try upgradeToPropertyColumns(on: connection, logger: logger)
    }

    /// Whether the schema is of this format and version, holds the indexes ``create(on:logger:)``
    /// makes and has no upgrade to property columns under way: one statement, no lock (it fails
    /// when the tables are missing).
    private func isCurrent(on connection: PostgresConnection, logger: Logger) throws -> Bool {
        let indexes = ["relata_dynamic_link_source", "relata_dynamic_link_target"]
            .map { "pg_catalog.to_regclass('\"\(schema)\".\($0)') IS NOT NULL" }.joined(separator: " AND ")
            + " AND pg_catalog.to_regprocedure('\(writeStartFunction)(int8)') IS NOT NULL"
        let query = PostgresQuery(unsafeSQL: "SELECT key, value FROM \(meta) UNION ALL SELECT 'relata_indexes', (\(indexes))::text")
        var found: [String: String] = [:]
        for row in try connection.query(query, logger: logger).answer(from: connection).rows {
            let (key, value) = try row.decode((String, String).self)
            found[key] = value
        }
        return found["format"] == Self.format && found["version"] == "\(Self.version)" && found["columns_table"] == nil
            && found["relata_indexes"] == "true"
    }

    /// Takes the writers' lock (`pg_advisory_xact_lock`, waited for up to the connection's
    /// `lock_timeout`) and then reads the log's bounds: its newest sequence and the highest one
    /// pruned. One statement where a write sent two, one after the other (postgres-nio sends a
    /// statement only once the one before was answered). Both in one plain `SELECT` would read
    /// the bounds in a snapshot taken before the lock was granted, missing the commit of the
    /// writer it waited for; a query inside a `VOLATILE` function takes a snapshot of its own in
    /// a `READ COMMITTED` transaction, as a write's is.
    var writeStartFunctionSQL: String {
        """
        CREATE OR REPLACE FUNCTION \(writeStartFunction)(lock_key int8) RETURNS TABLE (last int8, pruned int8)
        LANGUAGE plpgsql VOLATILE SET search_path = pg_catalog, pg_temp AS $$
        BEGIN
            PERFORM pg_catalog.pg_advisory_xact_lock(lock_key);
            RETURN QUERY SELECT (SELECT COALESCE(pg_catalog.max(l.seq), 0)::int8 FROM \(log) l),
                (SELECT COALESCE(pg_catalog.max(m.value::int8), 0)::int8 FROM \(meta) m WHERE m.key = 'pruned');
        END $$
        """
    }

    /// Entity counts, kept by statement triggers on each entity table (their argument is the
    /// table's catalog number): rows with a payload, the entities.
    var countFunctionSQL: String {
        """
        CREATE OR REPLACE FUNCTION \(countFunction)() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $$
        DECLARE delta int8;
        BEGIN
            IF TG_OP = 'INSERT' THEN
                SELECT pg_catalog.count(*) INTO delta FROM new_rows WHERE pg_catalog.octet_length(payload) > 0;
            ELSIF TG_OP = 'DELETE' THEN
                SELECT -pg_catalog.count(*) INTO delta FROM old_rows WHERE pg_catalog.octet_length(payload) > 0;
            ELSE
                SELECT (SELECT pg_catalog.count(*) FROM new_rows WHERE pg_catalog.octet_length(payload) > 0)
                     - (SELECT pg_catalog.count(*) FROM old_rows WHERE pg_catalog.octet_length(payload) > 0) INTO delta;
            END IF;
            IF delta <> 0 THEN
                UPDATE \(count) SET count = count + delta WHERE number = TG_ARGV[0]::int8;
            END IF;
            RETURN NULL;
        END $$
        """
    }
}
