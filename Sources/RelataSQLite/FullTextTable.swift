import Foundation
import GRDB
import RelataCore

/// The full-text table of one ``FullTextIndex`` of a type in a SQLite store, named after its
/// entity table and text columns (`e3_fts_c5`): an FTS5 index of each entity's trigrams as ASCII
/// words (``FullTextCandidates/term(_:)``; the `ascii` tokenizer, no positions), which finds the
/// rows holding a trigram, and beside it
///
/// - `<name>_doc (row, id, length, terms)`: the entity each FTS5 row is (entity tables have no
///   rowid), its number of trigrams and the words — the FTS5 table's external content: a search
///   reads each row it finds here, in the join, not through FTS5 (which would run a statement
///   per row to fetch its content); how often a row holds each trigram is counted from them;
/// - `<name>_stats (documents, length)`: their count and total, for BM25's average;
/// - `<name>_terms`: an `fts5vocab` table, which tells how many entities hold a trigram.
///
/// Files written before keep the words in the FTS5 table (`<name>_row`, `<name>_stat`): readers
/// leave such a table out (a search then runs in Swift) and the next sync of the type's
/// declarations, under the write lock, drops it and makes the table again.
typealias FullTextTable = FullTextTableName

extension FullTextTableName {
    /// The full-text tables of `entityTable` the file has (found by their statistics tables).
    static func names(of entityTable: String, _ db: Database) throws -> [String] {
        try names(of: entityTable, statistics: "_stats", db)
    }

    /// The full-text tables of `entityTable` in the earlier layout (the words in FTS5's own
    /// content), which the file may still have.
    static func earlierNames(of entityTable: String, _ db: Database) throws -> [String] {
        try names(of: entityTable, statistics: "_stat", db)
    }

    private static func names(of entityTable: String, statistics: String, _ db: Database) throws -> [String] {
        names(
            of: entityTable, statistics: statistics,
            among: try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?", arguments: [entityTable + "_fts_*" + statistics])
        )
    }

    /// The full-text tables of `entityTable` among the names of `tables`, found by their
    /// statistics tables (`_stats`; `_stat` in the earlier layout).
    static func names(of entityTable: String, statistics: String, among tables: some Sequence<String>) -> [String] {
        tables.filter { $0.hasPrefix(entityTable + "_fts_") && $0.hasSuffix(statistics) }
            .map { String($0.dropLast(statistics.count)) }.filter { FullTextTable(name: $0, entityTable: entityTable) != nil }
    }

    /// Drops the table `name` and those beside it (of either layout).
    static func drop(_ name: String, _ db: Database) throws {
        for suffix in ["_terms", "", "_doc", "_stats", "_row", "_stat"] { try db.execute(sql: "DROP TABLE IF EXISTS \(name)\(suffix)") }
    }

    /// Makes the tables and fills them from the stored entities of `type`.
    func create(_ db: Database, filling type: String) throws {
        try db.execute(
            sql: """
                CREATE TABLE \(name)_doc (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, length INTEGER NOT NULL, terms TEXT NOT NULL);
                CREATE VIRTUAL TABLE \(name) USING fts5(terms, tokenize = 'ascii', detail = none, content = '\(name)_doc', content_rowid = 'row');
                CREATE TABLE \(name)_stats (documents INTEGER NOT NULL, length INTEGER NOT NULL);
                INSERT INTO \(name)_stats (documents, length) VALUES (0, 0);
                CREATE VIRTUAL TABLE \(name)_terms USING fts5vocab(\(name), 'row');
                """
        )
        let rows = try Row.fetchCursor(db, sql: "SELECT id, \(columns.joined(separator: ", ")) FROM \(entityTable) WHERE length(payload) > 0")
        var documents = 0, length = 0
        let insertDoc = try db.cachedStatement(sql: "INSERT INTO \(name)_doc (id, length, terms) VALUES (?, ?, ?)")
        let insertTerms = try db.cachedStatement(sql: "INSERT INTO \(name) (rowid, terms) VALUES (?, ?)")
        while let row = try rows.next() {
            guard let id = row[0] as String? else { continue }
            let terms = FullTextCandidates.terms(of: columns.indices.map { (row[$0 + 1] as String?) ?? "" })
            try insertDoc.execute(arguments: [id, terms.count, terms.text])
            try insertTerms.execute(arguments: [db.lastInsertedRowID, terms.text])
            documents += 1
            length += terms.count
        }
        try db.execute(sql: "UPDATE \(name)_stats SET documents = ?, length = ?", arguments: [documents, length])
    }

    /// Writes the trigrams of each entity of `entries` with texts (its text, one per column),
    /// replacing its old ones, and removes those of each without: the rows already there found in
    /// one statement, the statistics updated once.
    func apply(_ entries: [(id: String, texts: [String]?)], _ db: Database) throws {
        guard !entries.isEmpty else { return }
        var existing: [String: (row: Int64, length: Int, terms: String)] = [:]
        let found = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT d.id, d.row, d.length, d.terms FROM json_each(?) AS k JOIN \(name)_doc AS d ON d.id = k.value"),
            arguments: [JSONArrayText.encode(entries.map(\.id))]
        )
        while let row = try found.next() { existing[row[0]] = (row[1], row[2], row[3]) }
        // External content: FTS5 forgets a row's words when given them again (`'delete'`).
        // Bound straight through SQLite: a write of many rows runs these once per row.
        let deleteTerms = try BoundStatement(db, sql: "INSERT INTO \(name) (\(name), rowid, terms) VALUES ('delete', ?, ?)")
        let insertTerms = try BoundStatement(db, sql: "INSERT INTO \(name) (rowid, terms) VALUES (?, ?)")
        let insertDocument = try BoundStatement(db, sql: "INSERT INTO \(name)_doc (id, length, terms) VALUES (?, ?, ?)")
        var documents = 0, length = 0
        for (id, texts) in entries {
            let old = existing[id]
            if let old {
                try deleteTerms.bind(1, old.row)
                try deleteTerms.bind(2, old.terms)
                try deleteTerms.step()
            }
            guard let texts else {
                guard let old else { continue }
                try db.cachedStatement(sql: "DELETE FROM \(name)_doc WHERE row = ?").execute(arguments: [old.row])
                (documents, length) = (documents - 1, length - old.length)
                existing[id] = nil
                continue
            }
            let terms = FullTextCandidates.terms(of: texts)
            let row: Int64
            if let old {
                row = old.row
                try db.cachedStatement(sql: "UPDATE \(name)_doc SET length = ?, terms = ? WHERE row = ?").execute(arguments: [terms.count, terms.text, row])
                length += terms.count - old.length
            } else {
                try insertDocument.bind(1, id)
                try insertDocument.bind(2, Int64(terms.count))
                try insertDocument.bind(3, terms.text)
                try insertDocument.step()
                row = db.lastInsertedRowID
                (documents, length) = (documents + 1, length + terms.count)
            }
            try insertTerms.bind(1, row)
            try insertTerms.bind(2, terms.text)
            try insertTerms.step()
            existing[id] = (row, terms.count, terms.text)
        }
        if documents != 0 || length != 0 {
            try db.cachedStatement(sql: "UPDATE \(name)_stats SET documents = documents + ?, length = length + ?").execute(arguments: [documents, length])
        }
    }

    /// What the table holds for `tokens` (distinct trigrams): with `containing` empty, its
    /// statistics and how many entities hold each trigram (one statement each, the counts from
    /// FTS5's vocabulary); otherwise each entity holding one of the trigrams at the places
    /// `containing`, with how often it holds each of `tokens`, and no statistics.
    func candidates(for tokens: [String], containing: [Int], excluding: [Int], _ db: Database) throws -> FullTextCandidates {
        let terms = tokens.map(FullTextCandidates.term)
        let places = FullTextTermPlaces(terms: terms)
        var frequencies = Array(repeating: 0, count: terms.count)
        guard !containing.isEmpty else {
            let stat = try Row.fetchOne(db, sql: "SELECT documents, length FROM \(name)_stats")
            let list = Array(repeating: "?", count: terms.count).joined(separator: ", ")
            for row in try Row.fetchAll(db, sql: "SELECT term, doc FROM \(name)_terms WHERE term IN (\(list))", arguments: StatementArguments(terms)) {
                if let place = places.place(of: (row[0] as String? ?? "").utf8) { frequencies[place] = row[1] }
            }
            return FullTextCandidates(documents: stat?[0] ?? 0, totalLength: stat?[1] ?? 0, documentFrequencies: frequencies, rows: [])
        }
        // The terms are ASCII letters and digits: quoted, each is one FTS5 string.
        func any(_ places: [Int]) -> String { "(" + places.map { "\"\(terms[$0])\"" }.joined(separator: " OR ") + ")" }
        let match = excluding.isEmpty ? any(containing) : any(containing) + " NOT " + any(excluding)
        let found = try Row.fetchCursor(
            db, sql: "SELECT d.id, d.length, d.terms FROM \(name) AS f JOIN \(name)_doc AS d ON d.row = f.rowid WHERE \(name) MATCH ?",
            arguments: [match]
        )
        var rows: [FullTextCandidates.Row] = []
        while let row = try found.next() {
            let stored: String = row[2]
            rows.append(FullTextCandidates.Row(id: row[0], length: row[1], frequencies: places.frequencies(in: stored)))
        }
        return FullTextCandidates(documents: 0, totalLength: 0, documentFrequencies: frequencies, rows: rows)
    }
}
