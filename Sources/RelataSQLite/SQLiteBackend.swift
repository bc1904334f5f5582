import Foundation
import GRDB
import RelataCore

/// The default ``StorageBackend``: one SQLite file (through GRDB), in WAL mode.
///
/// ```swift
/// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
/// ```
///
/// The file holds four tables: `relata_meta` (format and version); `relata_entity` (type, id,
/// payload: the normalized entity in a compact keyed binary form, links: the entity's to-one
/// links); `relata_link` (type, relation, source, target, position, inverse position: one row per
/// to-many link, one per linked pair for a mutual relation); and `relata_dynamic_link` (kind,
/// source type and id, target type and id: one row per dynamic relationship). Payloads keep
/// property names, like JSON, so adding an optional property or a relation to a model needs no
/// migration; rows of a type or relation the model no longer has are kept but not loaded
/// (``Store/ignoredRecords``).
///
/// Each ``persist(_:)`` is one transaction. With WAL and `synchronous = NORMAL`, a committed write
/// survives a crash of the process; the last writes before a power loss may be lost (SQLite's WAL
/// trade-off, see its documentation).
public final class SQLiteBackend: StorageBackend {
    /// The file's path.
    public let path: String
    private let queue: DatabaseQueue

    static let format = "relata"
    /// 2 added `relata_dynamic_link`; 3 stores a mutual relation once per linked pair, with the
    /// inverse position in `relata_link.inverse_position` (older files are upgraded when opened;
    /// the Store rewrites their links in the new form); 4 writes payloads in a binary form (JSON
    /// payloads of older files are still read, and rewritten when their entity is next saved) and
    /// keeps to-one links in `relata_entity.links` (the Store moves older link rows there when it
    /// opens the file); 5 stores entity types under their module-qualified names (the Store
    /// rewrites the rows of older files once when it opens them). A library older than a file's
    /// version refuses the file instead of misreading it.
    static let version = 5

    /// Opens the store file at `path`, creating it (and its schema) when it does not exist.
    ///
    /// A file that exists is checked first, read-only: if it is not a SQLite database, or a SQLite
    /// database that is not a Relata store, or damaged, opening throws and the file is not modified.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/notAStore``,
    ///   ``RelataError/Code/corruptedStore`` or ``RelataError/Code/storageFailed``.
    public init(path: String) throws {
        self.path = path
        try Self.checkPath(path)
        let exists = FileManager.default.fileExists(atPath: path)
        var found: (version: Int, wal: Bool)?
        if exists, (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0 > 0 {
            found = try Self.validate(path: path)
        }
        // A store of the current version, already in WAL mode, is not written to by opening it:
        // setting WAL (GRDB then writes to make sure the WAL file exists) and the migrator (which
        // writes even when it has nothing to do) are skipped, so a store that fails to load (a
        // damaged row) is left exactly as it was.
        let current = found.map { $0.version == Self.version && $0.wal } ?? false
        var configuration = Configuration()
        configuration.journalMode = current ? .default : .wal
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = NORMAL")
        }
        do {
            queue = try DatabaseQueue(path: path, configuration: configuration)
            if !current { try Self.migrator.migrate(queue) }
        } catch {
            throw Self.map(error, path: path, doing: "open")
        }
    }

    /// Refuses a path that cannot hold a store before anything is created: a directory, a path in
    /// a folder that does not exist, a file this process may not read and write.
    static func checkPath(_ path: String) throws {
        func refuse(_ reason: String) -> RelataError {
            RelataError(code: .storageFailed, entityType: "Store", message: "cannot open \(path): \(reason)")
        }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            if isDirectory.boolValue { throw refuse("it is a directory, not a store file") }
            guard access(path, R_OK | W_OK) == 0 else { throw refuse("permission denied (the file must be readable and writable)") }
            return
        }
        let folder = (path as NSString).deletingLastPathComponent
        guard folder.isEmpty || (FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue)
        else { throw refuse("there is no folder \(folder) to create it in") }
        guard folder.isEmpty || access(folder, W_OK) == 0 else {
            throw refuse("permission denied (cannot create files in \(folder))")
        }
    }

    /// Checks, read-only, that the file at `path` is a Relata store.
    ///
    /// - Returns: The store's format version and whether it is in WAL mode, or `nil` for an
    ///   empty database.
    @discardableResult
    static func validate(path: String) throws -> (version: Int, wal: Bool)? {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw RelataError(code: .storageFailed, entityType: "Store", message: "cannot read \(path)")
        }
        let header = handle.readData(ofLength: 16)
        try? handle.close()
        guard header == Data("SQLite format 3\0".utf8) else {
            throw RelataError(code: .notAStore, entityType: "Store", message: "\(path) is not a SQLite database, so not a Relata store")
        }
        // Nothing is written either way. Read-only when the database has -wal or -shm files
        // beside it (another connection uses it, or one crashed; they are left as they are);
        // otherwise a read-write connection, because a read-only one makes those files for a
        // WAL database and leaves them behind, where the last read-write connection removes them
        // as it closes (SQLite knows whether it is the last).
        let companions = [path + "-wal", path + "-shm"].contains { FileManager.default.fileExists(atPath: $0) }
        var configuration = Configuration()
        configuration.readonly = companions
        do {
            let reader = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? reader.close() }
            return try reader.read { db -> (version: Int, wal: Bool)? in
                let tables = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'")
                if tables.isEmpty { return nil }  // an empty database: becomes a store
                guard tables.contains("relata_meta"),
                    try String.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'format'") == format
                else {
                    throw RelataError(code: .notAStore, entityType: "Store", message: "\(path) is a SQLite database but not a Relata store")
                }
                let version = try Int.fetchOne(db, sql: "SELECT value FROM relata_meta WHERE key = 'version'") ?? 0
                guard version <= Self.version else {
                    throw RelataError(
                        code: .notAStore, entityType: "Store",
                        message: "\(path) is a Relata store of version \(version), newer than this library (\(Self.version))"
                    )
                }
                return (version, try String.fetchOne(db, sql: "PRAGMA journal_mode")?.lowercased() == "wal")
            }
        } catch let error as RelataError {
            throw error
        } catch {
            throw map(error, path: path, doing: "open")
        }
    }

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("relata-v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE relata_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                    INSERT INTO relata_meta (key, value) VALUES ('format', '\(format)'), ('version', '\(version)');
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
        migrator.registerMigration("relata-v2-dynamic-links") { db in
            try db.execute(
                sql: """
                    CREATE TABLE relata_dynamic_link (
                        kind TEXT NOT NULL, source_type TEXT NOT NULL, source TEXT NOT NULL,
                        target_type TEXT NOT NULL, target TEXT NOT NULL,
                        PRIMARY KEY (kind, source_type, source, target_type, target)
                    ) WITHOUT ROWID;
                    UPDATE relata_meta SET value = '2' WHERE key = 'version';
                    """
            )
        }
        migrator.registerMigration("relata-v3-link-pairs") { db in
            try db.execute(
                sql: """
                    ALTER TABLE relata_link ADD COLUMN inverse_position TEXT;
                    UPDATE relata_meta SET value = '3' WHERE key = 'version';
                    """
            )
        }
        migrator.registerMigration("relata-v4-binary-payloads-and-row-links") { db in
            try db.execute(
                sql: """
                    ALTER TABLE relata_entity ADD COLUMN links BLOB;
                    UPDATE relata_meta SET value = '4' WHERE key = 'version';
                    """
            )
        }
        migrator.registerMigration("relata-v5-qualified-type-names") { db in
            // The rows keep the names they have; the Store rewrites them under module-qualified
            // names when it loads them.
            try db.execute(sql: "UPDATE relata_meta SET value = '5' WHERE key = 'version'")
        }
        return migrator
    }

    public func load(
        entities entity: (EntityRecord) throws -> Void,
        links link: (LinkRecord) throws -> Void,
        dynamicLinks dynamicLink: (DynamicLinkRecord) throws -> Void
    ) throws {
        do {
            try queue.read { db in
                let entities = try Row.fetchCursor(db, sql: "SELECT type, id, payload, links FROM relata_entity")
                while let row = try entities.next() {
                    try entity(EntityRecord(type: row[0], id: row[1], payload: row[2], links: row[3]))
                }
                // Primary-key order: the links of one source come together.
                let links = try Row.fetchCursor(
                    db, sql: "SELECT type, relation, source, target, position, inverse_position FROM relata_link"
                )
                while let row = try links.next() {
                    try link(
                        LinkRecord(
                            type: row[0], relation: row[1], source: row[2], target: row[3], position: row[4], inversePosition: row[5]
                        )
                    )
                }
                let dynamicLinks = try Row.fetchCursor(
                    db, sql: "SELECT kind, source_type, source, target_type, target FROM relata_dynamic_link"
                )
                while let row = try dynamicLinks.next() {
                    try dynamicLink(
                        DynamicLinkRecord(kind: row[0], sourceType: row[1], source: row[2], targetType: row[3], target: row[4])
                    )
                }
            }
        } catch let error as RelataError {
            throw error
        } catch {
            throw Self.map(error, path: path, doing: "load")
        }
    }

    public func persist(_ changes: StoreChanges) throws {
        do {
            try queue.write { db in
                if !changes.deletedEntities.isEmpty {
                    let statement = try BoundStatement(db, sql: "DELETE FROM relata_entity WHERE type = ? AND id = ?")
                    for key in changes.deletedEntities { try statement.run(key.type, key.id) }
                }
                if !changes.upsertedEntities.isEmpty {
                    let statement = try BoundStatement(
                        db, sql: "INSERT OR REPLACE INTO relata_entity (type, id, payload, links) VALUES (?, ?, ?, ?)"
                    )
                    for record in changes.upsertedEntities {
                        try statement.bind(1, record.type)
                        try statement.bind(2, record.id)
                        try statement.bind(3, record.payload)
                        try statement.bind(4, record.links)
                        try statement.step()
                    }
                }
                if !changes.deletedLinks.isEmpty {
                    let statement = try BoundStatement(
                        db, sql: "DELETE FROM relata_link WHERE type = ? AND relation = ? AND source = ? AND target = ?"
                    )
                    for key in changes.deletedLinks {
                        try statement.run(key.type, key.relation, key.source, key.target)
                    }
                }
                if !changes.deletedDynamicLinks.isEmpty {
                    let statement = try BoundStatement(
                        db,
                        sql: """
                            DELETE FROM relata_dynamic_link
                            WHERE kind = ? AND source_type = ? AND source = ? AND target_type = ? AND target = ?
                            """
                    )
                    for r in changes.deletedDynamicLinks {
                        try statement.run(r.kind, r.sourceType, r.source, r.targetType, r.target)
                    }
                }
                if !changes.insertedDynamicLinks.isEmpty {
                    let statement = try BoundStatement(
                        db,
                        sql: """
                            INSERT OR REPLACE INTO relata_dynamic_link (kind, source_type, source, target_type, target)
                            VALUES (?, ?, ?, ?, ?)
                            """
                    )
                    for r in changes.insertedDynamicLinks {
                        try statement.run(r.kind, r.sourceType, r.source, r.targetType, r.target)
                    }
                }
                if !changes.upsertedLinks.isEmpty {
                    let statement = try BoundStatement(
                        db,
                        sql: """
                            INSERT OR REPLACE INTO relata_link (type, relation, source, target, position, inverse_position)
                            VALUES (?, ?, ?, ?, ?, ?)
                            """
                    )
                    for r in changes.upsertedLinks {
                        try statement.bind(1, r.type)
                        try statement.bind(2, r.relation)
                        try statement.bind(3, r.source)
                        try statement.bind(4, r.target)
                        try statement.bind(5, r.position)
                        try statement.bind(6, r.inversePosition)
                        try statement.step()
                    }
                }
            }
        } catch {
            throw Self.map(error, path: path, doing: "write")
        }
    }

    public func close() throws {
        do {
            try queue.close()
        } catch {
            throw Self.map(error, path: path, doing: "close")
        }
    }

    /// The driver's error as a ``RelataError``.
    static func map(_ error: any Error, path: String, doing action: String) -> RelataError {
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_NOTADB:
                return RelataError(code: .notAStore, entityType: "Store", message: "\(path) is not a SQLite database", underlying: error)
            case .SQLITE_CORRUPT:
                return RelataError(code: .corruptedStore, entityType: "Store", message: "\(path) is damaged", underlying: error)
            default:
                return RelataError(
                    code: .storageFailed, entityType: "Store", message: "cannot \(action) \(path): \(error.message ?? "\(error.resultCode)")",
                    underlying: error
                )
            }
        }
        return RelataError(code: .storageFailed, entityType: "Store", message: "cannot \(action) \(path): \(error)")
    }
}

extension Store {
    /// Opens (or creates) the SQLite store file at `path` and loads it.
    ///
    /// ```swift
    /// let store = try await Store(path: "chat.sqlite", entities: User.self, Chat.self, Message.self)
    /// ```
    ///
    /// - Throws: ``RelataError`` when the file is not a Relata store, is damaged, or cannot be read.
    public convenience init(path: String, entities: any EntityModelProtocol.Type...) async throws {
        try await self.init(backend: SQLiteBackend(path: path), schema: EntitySchema(entities))
    }
}
