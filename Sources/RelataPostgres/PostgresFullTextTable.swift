import Foundation
import NIOCore
import PostgresNIO
import RelataCore

/// The full-text table of one ``FullTextIndex`` of a type in a PostgreSQL store, named after its
/// entity table and text columns (`e3_fts_c5`), as SQLite's `FullTextTable` is: a row per entity
/// with its trigrams as words (``FullTextCandidates/terms(of:)``), their number, and a
/// `tsvector` of them (`array_to_tsvector`: the words as they are, no parser) under a GIN index,
/// which finds the rows holding a trigram; beside it `<name>_stat (documents, length)`, their
/// count and total, for BM25's average, and `<name>_terms (term, documents)`, how many rows hold
/// each trigram (what FTS5's vocabulary answers on SQLite; counting through the GIN index visits
/// every such row). Every write of the type keeps all three, in one statement.
///
/// A table of an earlier version (one without `_terms`) is left out by readers and writers, and
/// made again by the next open or write that syncs the type's declarations.
typealias PostgresFullTextTable = FullTextTableName

extension FullTextTableName {
    /// The full-text tables of `entityTable` the schema has: those complete, and those made before
    /// their `_terms` table existed (to be made again).
    static func existing(
        of entityTable: String, in schema: PostgresSchema, _ execute: PostgresExecute
    ) throws -> (complete: [PostgresFullTextTable], outdated: [PostgresFullTextTable]) {
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT s.tablename, EXISTS (
                    SELECT 1 FROM pg_catalog.pg_tables t
                    WHERE t.schemaname = s.schemaname AND t.tablename = pg_catalog.left(s.tablename, -5) OPERATOR(pg_catalog.||) '_terms'
                )
                FROM pg_catalog.pg_tables s WHERE s.schemaname = $1 AND s.tablename LIKE $2
                """
        )
        query.binds.append(schema.schema)
        query.binds.append(entityTable + "\\_fts\\_%\\_stat")
        var complete: [PostgresFullTextTable] = [], outdated: [PostgresFullTextTable] = []
        for row in try execute(query) {
            let (stat, hasTerms) = try row.decode((String, Bool).self)
            guard let table = PostgresFullTextTable(name: String(stat.dropLast("_stat".count)), entityTable: entityTable) else { continue }
            if hasTerms { complete.append(table) } else { outdated.append(table) }
        }
        return (complete, outdated)
    }

    /// Drops the table, its statistics and its counts of trigrams.
    func drop(in schema: PostgresSchema, _ execute: PostgresExecute) throws {
        for suffix in ["_terms", "_stat", ""] { _ = try execute(PostgresQuery(unsafeSQL: "DROP TABLE IF EXISTS \(schema.qualified(name + suffix))")) }
    }

    /// Makes the tables and fills them from the stored entities of the type, in batches.
    func create(in schema: PostgresSchema, _ execute: PostgresExecute) throws {
        let table = schema.qualified(name)
        for statement in [
            "CREATE TABLE \(schema.qualified(name + "_terms")) (term text COLLATE \"C\" PRIMARY KEY, documents int8 NOT NULL)",
            "CREATE TABLE \(table) (id text COLLATE \"C\" PRIMARY KEY, length int8 NOT NULL, terms text NOT NULL, vector tsvector NOT NULL)",
            "CREATE INDEX \(name)_vector ON \(table) USING gin (vector)",
            "CREATE TABLE \(schema.qualified(name + "_stat")) (documents int8 NOT NULL, length int8 NOT NULL)",
            "INSERT INTO \(schema.qualified(name + "_stat")) (documents, length) VALUES (0, 0)",
        ] {
            _ = try execute(PostgresQuery(unsafeSQL: statement))
        }
        var after = ""
        while true {
            var page = PostgresQuery(
                unsafeSQL: """
                    SELECT id, \(columns.joined(separator: ", ")) FROM \(schema.qualified(entityTable))
                    WHERE pg_catalog.octet_length(payload) > 0 AND id > $1 ORDER BY id LIMIT 10000
                    """
            )
            page.binds.append(after)
            let rows = try execute(page)
            guard !rows.isEmpty else { return }
            var entries: [(id: String, texts: [String]?)] = []
            for row in rows {
                let cells = row.makeRandomAccess()
                let id = try cells[0].decode(String.self)
                entries.append((id, try columns.indices.map { try cells[$0 + 1].decode(String?.self) ?? "" }))
                after = id
            }
            _ = try execute(applying(entries, in: schema))
        }
    }

    /// The statement that writes the trigrams of each entity of `entries` with texts (its text,
    /// one per column), replacing its old ones, and removes those of each without, keeping the
    /// statistics and the counts of trigrams: one statement, the rows passed as arrays. Each id
    /// once.
    func applying(_ entries: [(id: String, texts: [String]?)], in schema: PostgresSchema) -> PostgresQuery {
        var ids: [String] = [], lengths: [Int64] = [], terms: [String] = [], gone: [String] = []
        for (id, texts) in entries {
            guard let texts else {
                gone.append(id)
                continue
            }
            let found = FullTextCandidates.terms(of: texts)
            ids.append(id)
            lengths.append(Int64(found.count))
            terms.append(found.text)
        }
        let table = schema.qualified(name), stat = schema.qualified(name + "_stat")
        // The statistics and the counts of trigrams count what the rows were (`old`, read before
        // the statement changes them) and what they become; `up`, `gone` and `counted` run
        // whether or not the rest reads them. A trigram no row holds any more keeps a count of 0.
        var query = PostgresQuery(
            unsafeSQL: """
                WITH k AS (SELECT * FROM ROWS FROM (\(PostgresRowWriter.unnest(["text", "int8", "text"]))) AS k(id, length, terms)),
                old AS (SELECT t.id, t.length, t.terms FROM \(table) t WHERE t.id IN (SELECT id FROM k) OR t.id = ANY($4::text[])),
                counted AS (
                    INSERT INTO \(schema.qualified(name + "_terms")) AS v (term, documents)
                    SELECT term, pg_catalog.sum(change)::int8 FROM (
                        SELECT DISTINCT k.id, w.term, 1 AS change FROM k, pg_catalog.unnest(pg_catalog.string_to_array(k.terms, ' ')) AS w(term) WHERE w.term <> ''
                        UNION ALL
                        SELECT DISTINCT old.id, w.term, -1 FROM old, pg_catalog.unnest(pg_catalog.string_to_array(old.terms, ' ')) AS w(term) WHERE w.term <> ''
                    ) AS changes GROUP BY term HAVING pg_catalog.sum(change) <> 0
                    ON CONFLICT (term) DO UPDATE SET documents = v.documents + EXCLUDED.documents
                    RETURNING 1
                ),
                up AS (
                    INSERT INTO \(table) (id, length, terms, vector)
                    SELECT id, length, terms, pg_catalog.array_to_tsvector(pg_catalog.array_remove(pg_catalog.string_to_array(terms, ' '), ''))
                    FROM k
                    ON CONFLICT (id) DO UPDATE SET length = EXCLUDED.length, terms = EXCLUDED.terms, vector = EXCLUDED.vector
                    RETURNING 1
                ),
                gone AS (DELETE FROM \(table) WHERE id = ANY($4::text[]) RETURNING 1)
                UPDATE \(stat) SET
                    documents = documents + (SELECT pg_catalog.count(*) FROM k) - (SELECT pg_catalog.count(*) FROM old),
                    length = length + (SELECT COALESCE(pg_catalog.sum(length), 0) FROM k) - (SELECT COALESCE(pg_catalog.sum(length), 0) FROM old)
                """
        )
        query.binds.append(ids)
        query.binds.append(lengths)
        query.binds.append(terms)
        query.binds.append(gone)
        return query
    }

    /// What the table holds for `tokens` (distinct trigrams): with `containing` empty, its
    /// statistics and how many entities hold each trigram (one statement, from `_terms`);
    /// otherwise each entity holding one of the trigrams at the places `containing` and none of
    /// those at the places `excluding`, with how often it holds each of `tokens`, and no
    /// statistics (one statement).
    func candidates(for tokens: [String], containing: [Int], excluding: [Int], in schema: PostgresSchema, _ execute: PostgresExecute) throws -> FullTextCandidates {
        let terms = tokens.map(FullTextCandidates.term)
        let table = schema.qualified(name)
        var frequencies = Array(repeating: 0, count: terms.count)
        guard !containing.isEmpty else {
            var counts = PostgresQuery(
                unsafeSQL: """
                    SELECT s.documents, s.length, (
                        SELECT pg_catalog.array_agg(COALESCE(v.documents, 0) ORDER BY q.place)
                        FROM pg_catalog.unnest($1::text[]) WITH ORDINALITY AS q(term, place)
                        LEFT JOIN \(schema.qualified(name + "_terms")) v ON v.term = q.term
                    ) FROM \(schema.qualified(name + "_stat")) s
                    """
            )
            counts.binds.append(terms)
            guard let row = try execute(counts).first else {
                return FullTextCandidates(documents: 0, totalLength: 0, documentFrequencies: frequencies, rows: [])
            }
            let (documents, length, found) = try row.decode((Int64, Int64, [Int64]?).self)
            for (place, count) in (found ?? []).enumerated() where place < frequencies.count { frequencies[place] = Int(count) }
            return FullTextCandidates(documents: Int(documents), totalLength: Int(length), documentFrequencies: frequencies, rows: [])
        }
        let places = FullTextTermPlaces(terms: terms)
        // Terms are ASCII letters and digits: quoted, each is one lexeme of a `tsquery`.
        var found = PostgresQuery(unsafeSQL: "SELECT id, length, terms FROM \(table) WHERE vector @@ $1::tsquery")
        func any(_ places: [Int]) -> String { "(" + places.map { "'\(terms[$0])'" }.joined(separator: " | ") + ")" }
        found.binds.append(excluding.isEmpty ? any(containing) : any(containing) + " & !" + any(excluding))
        var rows: [FullTextCandidates.Row] = []
        for row in try execute(found) {
            let (id, length, stored) = try row.decode((String, Int64, String).self)
            rows.append(FullTextCandidates.Row(id: id, length: Int(length), frequencies: places.frequencies(in: stored)))
        }
        return FullTextCandidates(documents: 0, totalLength: 0, documentFrequencies: frequencies, rows: rows)
    }
}
