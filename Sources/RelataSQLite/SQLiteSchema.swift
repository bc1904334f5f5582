import GRDB

/// The tables of a SQLite store and how older files are brought up to date.
///
/// Versions: 2 added `relata_dynamic_link`; 3 stores a mutual relation once per linked pair, with
/// the inverse position in `relata_link.inverse_position` (the Store rewrites older files' links
/// in the new form when it opens them); 4 writes payloads in a binary form (JSON payloads of
/// older files are still read, and rewritten when their entity is next saved) and keeps to-one
/// links in `relata_entity.links`; 5 stores entity types under their module-qualified names (the
/// Store rewrites older rows once); 6 adds the change log `relata_log`, which lets several
/// processes share the file; 7 keeps each entity type in a table of its own with its to-one
/// links in indexed columns, each to-many relation in a link table indexed from both ends, and
/// entity counts in `relata_count` (see ``TableCatalog``; the rows of `relata_entity` and
/// `relata_link` move there once, in the transaction that upgrades the file); 8 keeps each stored
/// property in a typed column of its own (`c<n>`, see `SplitPayload`), the rows of a file of
/// version 7 moved there in batches after the open, resumed if interrupted; 9 may hold full-text
/// tables of the types' declared ``FullTextIndex``es (`e<n>_fts_…`), which every write of their
/// type keeps (upgrading changes nothing else); 10 keeps when each entity was last saved in its
/// row (`updated_at`, indexed; NULL in the rows of older files until their entity is saved
/// again); 11 keeps `relata_count` from each write's rows instead of by triggers on the entity
/// tables (a trigger program ran per row written; the upgrade drops them); 12 numbers the log's
/// records itself (`seq INTEGER PRIMARY KEY`, no `AUTOINCREMENT`: each commit's sequence is the
/// one before it plus one, so `sqlite_sequence` is not written at every commit) and drops the
/// log's time index `relata_log_at` (pruning reads the expired records from the oldest, see
/// `LogRetention`): two pages fewer per commit. A library older than a file's version refuses
/// the file instead of misreading it (or writing it without its log).
package enum SQLiteSchema {
    static let format = "relata"
    static let version = 12

    /// The change log's table: one record per commit, numbered by the writer (see
    /// `SQLiteTransaction.persist`).
    static func logTable(named name: String = "relata_log") -> String {
        "CREATE TABLE IF NOT EXISTS \(name) (seq INTEGER PRIMARY KEY, origin TEXT NOT NULL, at REAL NOT NULL, record BLOB NOT NULL)"
    }

    /// Creates the tables, or upgrades them from the version the file has, inside the caller's
    /// `BEGIN IMMEDIATE` transaction: two processes opening a new or old file at once upgrade
    /// it once (the second finds it done).
    static func migrate(_ db: Database, path: String) throws {
        let hasMeta = try db.tableExists("relata_meta")
        let found = hasMeta ? try Int.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'") ?? 0 : 0
        guard found < version else { return }
        if found < 1 {
            try db.execute(
                sql: """
                    CREATE TABLE relata_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO relata_meta (key, value) VALUES ('format', '\(format)'), ('version', '1');
                    CREATE TABLE relata_entity (
                        type TEXT NOT NULL, id TEXT NOT NULL, payload BLOB NOT NULL,
                        PRIMARY KEY (type, id)
                    ) WITHOUT ROWID;
                    CREATE TABLE relata_link (
                        type TEXT NOT NULL, relation TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
                        position TEXT,
                        PRIMARY KEY (type, relation, source, target)
                    ) WITHOUT ROWID;
                    """
            )
        }
        if found < 2 {
            try db.execute(
                sql: """
                    CREATE TABLE relata_dynamic_link (
                        kind TEXT NOT NULL, source_type TEXT NOT NULL, source TEXT NOT NULL,
                        target_type TEXT NOT NULL, target TEXT NOT NULL,
                        PRIMARY KEY (kind, source_type, source, target_type, target)
                    ) WITHOUT ROWID;
                    """
            )
        }
        if found < 3 { try db.execute(sql: "ALTER TABLE relata_link ADD COLUMN inverse_position TEXT") }
        if found < 4 { try db.execute(sql: "ALTER TABLE relata_entity ADD COLUMN links BLOB") }
        // 5: the rows keep the names they have; the Store rewrites them under module-qualified
        // names when it loads them.
        if found < 6 { try db.execute(sql: logTable()) }
        if found < 7 { try upgradeToTypedTables(db, from: found, path: path) }
        // Files older than 7 wrote their rows through the writer of this version just now.
        if found == 7 { try markPropertyColumnsUpgrade(db) }
        if found >= 7, found < 10 {
            for (_, table) in try catalog(db, path: path).entityTypes { try addUpdatedAt(to: table, db) }
        }
        if found >= 7, found < 11 { try dropCountTriggers(db, path: path) }
        if found >= 6, found < 12 { try renumberLog(db) }
        try db.execute(sql: "UPDATE relata_meta SET value = ? WHERE key = 'version'", arguments: ["\(version)"])
    }

    /// Moves the log's records, with their sequences, into a table without `AUTOINCREMENT` or
    /// the time index (both go with the old table, and its `sqlite_sequence` row).
    private static func renumberLog(_ db: Database) throws {
        guard try db.tableExists("relata_log") else { return try db.execute(sql: logTable()) }
        try db.execute(sql: logTable(named: "relata_log_renumbered"))
        try db.execute(
            sql: """
                INSERT INTO relata_log_renumbered (seq, origin, at, record) SELECT seq, origin, at, record FROM relata_log;
                DROP TABLE relata_log;
                ALTER TABLE relata_log_renumbered RENAME TO relata_log;
                """
        )
    }
}
