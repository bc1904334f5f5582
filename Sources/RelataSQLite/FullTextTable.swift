import Foundation
import GRDB
import RelataCore

/// The full-text table of one ``FullTextIndex`` of a type in a SQLite store, named after its
/// entity table and text columns (`e3_fts_c5`): an FTS5 table of each entity's trigrams as ASCII
/// words (``FullTextCandidates/term(_:)``; the `ascii` tokenizer, no positions), which finds the
/// rows holding a trigram and keeps the words (how often a row holds each is counted from them),
/// and beside it
///
/// - `<name>_row (row, id, length)`: the entity each FTS5 row is (entity tables have no rowid)
///   and its number of trigrams;
/// - `<name>_stat (documents, length)`: their count and total, for BM25's average;
/// - `<name>_terms`: an `fts5vocab` table, which tells how many entities hold a trigram.
typealias FullTextTable = FullTextTableName

extension FullTextTableName {
    /// The full-text tables of `entityTable` the file has (found by their statistics tables).
    static func names(of entityTable: String, _ db: Database) throws -> [String] {
        try String.fetchAll(
            db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB ?", arguments: [entityTable + "_fts_*_stat"]
        ).map { String($0.dropLast("_stat".count)) }.filter { FullTextTable(name: $0, entityTable: entityTable) != nil }
    }

    /// Drops the table `name` and those beside it.
    static func drop(_ name: String, _ db: Database) throws {
        for suffix in ["_terms", "", "_row", "_stat"] { try db.execute(sql: "DROP TABLE IF EXISTS \(name)\(suffix)") }
    }

    /// Makes the tables and fills them from the stored entities of `type`, in batches.
    func create(_ db: Database, filling type: String) throws {
        try db.execute(
            sql: """
                CREATE VIRTUAL TABLE \(name) USING fts5(terms, tokenize = 'ascii', detail = none);
                CREATE TABLE \(name)_row (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, length INTEGER NOT NULL);
                CREATE TABLE \(name)_stat (documents INTEGER NOT NULL, length INTEGER NOT NULL);
                INSERT INTO \(name)_stat (documents, length) VALUES (0, 0);
                CREATE VIRTUAL TABLE \(name)_terms USING fts5vocab(\(name), 'row');
                """
        )
        let rows = try Row.fetchCursor(db, sql: "SELECT id, \(columns.joined(separator: ", ")) FROM \(entityTable) WHERE length(payload) > 0")
        var documents = 0, length = 0
        let insertRow = try db.cachedStatement(sql: "INSERT INTO \(name)_row (id, length) VALUES (?, ?)")
        let insertTerms = try db.cachedStatement(sql: "INSERT INTO \(name) (rowid, terms) VALUES (?, ?)")
        while let row = try rows.next() {
            guard let id = row[0] as String? else { continue }
            let terms = FullTextCandidates.terms(of: columns.indices.map { (row[$0 + 1] as String?) ?? "" })
            try insertRow.execute(arguments: [id, terms.count])
            try insertTerms.execute(arguments: [db.lastInsertedRowID, terms.text])
            documents += 1
            length += terms.count
        }
        try db.execute(sql: "UPDATE \(name)_stat SET documents = ?, length = ?", arguments: [documents, length])
    }

    /// Writes the trigrams of each entity of `entries` with texts (its text, one per column),
    /// replacing its old ones, and removes those of each without: the rows already there found in
    /// one statement, the statistics updated once.
    func apply(_ entries: [(id: String, texts: [String]?)], _ db: Database) throws {
        guard !entries.isEmpty else { return }
        var existing: [String: (row: Int64, length: Int)] = [:]
        let found = try Row.fetchCursor(
            db.cachedStatement(sql: "SELECT r.id, r.row, r.length FROM json_each(?) AS k JOIN \(name)_row AS r ON r.id = k.value"),
            arguments: [JSONArrayText.encode(entries.map(\.id))]
        )
        while let row = try found.next() { existing[row[0]] = (row[1], row[2]) }
        let deleteTerms = try db.cachedStatement(sql: "DELETE FROM \(name) WHERE rowid = ?")
        let insertTerms = try db.cachedStatement(sql: "INSERT INTO \(name) (rowid, terms) VALUES (?, ?)")
        var documents = 0, length = 0
        for (id, texts) in entries {
            let old = existing[id]
            if let old { try deleteTerms.execute(arguments: [old.row]) }
            guard let texts else {
                guard let old else { continue }
                try db.cachedStatement(sql: "DELETE FROM \(name)_row WHERE row = ?").execute(arguments: [old.row])
                (documents, length) = (documents - 1, length - old.length)
                existing[id] = nil
                continue
            }
            let terms = FullTextCandidates.terms(of: texts)
            let row: Int64
            if let old {
                row = old.row
                try db.cachedStatement(sql: "UPDATE \(name)_row SET length = ? WHERE row = ?").execute(arguments: [terms.count, row])
                length += terms.count - old.length
            } else {
                try db.cachedStatement(sql: "INSERT INTO \(name)_row (id, length) VALUES (?, ?)").execute(arguments: [id, terms.count])
                row = db.lastInsertedRowID
                (documents, length) = (documents + 1, length + terms.count)
            }
            try insertTerms.execute(arguments: [row, terms.text])
            existing[id] = (row, terms.count)
        }
        if documents != 0 || length != 0 {
            try db.cachedStatement(sql: "UPDATE \(name)_stat SET documents = documents + ?, length = length + ?").execute(arguments: [documents, length])
        }
    }

    /// What the table holds for `tokens` (distinct trigrams): with `containing` empty, its
    /// statistics and how many entities hold each trigram (one statement each, the counts from
    /// FTS5's vocabulary); otherwise each entity holding one of the trigrams at the places
    /// `containing`, with how often it holds each of `tokens`, and no statistics.
    func candidates(for tokens: [String], containing: [Int], _ db: Database) throws -> FullTextCandidates {
        let terms = tokens.map(FullTextCandidates.term)
        let places = FullTextTermPlaces(terms: terms)
        var frequencies = Array(repeating: 0, count: terms.count)
        guard !containing.isEmpty else {
            let stat = try Row.fetchOne(db, sql: "SELECT documents, length FROM \(name)_stat")
            let list = Array(repeating: "?", count: terms.count).joined(separator: ", ")
            for row in try Row.fetchAll(db, sql: "SELECT term, doc FROM \(name)_terms WHERE term IN (\(list))", arguments: StatementArguments(terms)) {
                if let place = places.place(of: (row[0] as String? ?? "").utf8) { frequencies[place] = row[1] }
            }
            return FullTextCandidates(documents: stat?[0] ?? 0, totalLength: stat?[1] ?? 0, documentFrequencies: frequencies, rows: [])
        }
        // The terms are ASCII letters and digits: quoted, each is one FTS5 string.
        let match = containing.map { "\"\(terms[$0])\"" }.joined(separator: " OR ")
        let found = try Row.fetchCursor(
            db, sql: "SELECT r.id, r.length, f.terms FROM \(name) AS f JOIN \(name)_row AS r ON r.row = f.rowid WHERE \(name) MATCH ?",
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
