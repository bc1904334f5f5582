import Foundation
import GRDB
import Relata
@testable import RelataCore
@testable import RelataPostgres
@testable import RelataSQLite
import Testing

/// `@FullTextIndex`: a `matches` search of the indexed properties keeps what shares a trigram
/// with it and ranks it as SwiftletModel's index ranks (BM25), in memory and in every store; in
/// a SQLite store from its table of trigrams, reading only the best entities.
@Suite("Full-text index: ranked search, the same in memory and in stores")
struct FullTextIndexTests {
    @EntityModel
    struct Article: Codable, Equatable {
        @FullTextIndex<Self>(\.title, \.body) private var textIndex
        @Index<Self>(\.rank) private var rankIndex
        @HashIndex<Self>(\.tag) private var tagIndex

        let id: String
        var title: String
        var body: String
        var rank: Int
        var tag: String
    }

    /// SwiftletModel's index (FullTextIndex+Hashable.swift at a24c84e) rebuilt as an oracle: the
    /// ids its `search` returns for `value` over `articles`, best first (ties by id: its own
    /// order among equal scores is a dictionary's).
    static func oracle(_ articles: [Article], _ value: String) -> [String] {
        var index: [String: Set<String>] = [:], frequencies: [String: [String: Int]] = [:], lengths: [String: Int] = [:]
        var total = 0
        for article in articles {
            let tokens = [article.title, article.body].flatMap(SwiftletModelOracles.makeTokens)
            for token in tokens { index[token, default: []].insert(article.id) }
            frequencies[article.id] = tokens.reduce(into: [:]) { $0[$1, default: 0] += 1 }
            lengths[article.id] = tokens.count
            total += tokens.count
        }
        let average = Double(total) / Double(max(1, articles.count))
        var scores: [String: Double] = [:]
        for token in SwiftletModelOracles.makeTokens(value) {
            guard let docs = index[token] else { continue }
            let n = Double(articles.count), m = Double(docs.count)
            let idf = log((n - m + 0.5) / (m + 0.5) + 1.0)
            for id in docs {
                let tf = Double(frequencies[id]?[token] ?? 0), length = Double(lengths[id] ?? 0)
                let numerator = tf * (1.2 + 1.0)
                let denominator = tf + 1.2 * (1.0 - 0.75 + 0.75 * length / average)
                scores[id, default: 0] += idf * numerator / denominator
            }
        }
        return scores.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }.map(\.key)
    }

    static let words = ["release", "notes", "swift", "Relata", "store", "search", "index", "Übung", "naïve", "1042", "1043", "chat"]

    static func articles(_ count: Int, seed: UInt64) -> [Article] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { i in
            func text(_ n: Int) -> String { (0..<n).map { _ in words.randomElement(using: &random)! }.joined(separator: " ") }
            return Article(id: "a\(i)", title: text(Int.random(in: 0...3, using: &random)), body: text(Int.random(in: 0...12, using: &random)),
                           rank: i % 7, tag: i % 2 == 0 ? "even" : "odd")
        }
    }

    static let searches = ["release notes 1042", "Swift store", "uebung naive", "ÜBUNG", "xy", "chat 1043 index"]

    @Test("In memory, a search ranks as SwiftletModel's index; with a limit, the best first")
    func inMemory() throws {
        let articles = Self.articles(300, seed: 1)
        var context = Context()
        for article in articles { try article.save(to: &context) }
        for search in Self.searches {
            let found = Article.query(in: context).filter(.string(\.title, \.body, matches: search)).resolve().map(\.id)
            #expect(found == Self.oracle(articles, search), "\(search)")
            let best = Article.query(in: context).filter(.string(\.title, \.body, matches: search)).limit(5, offset: 2).resolve().map(\.id)
            #expect(best == Array(Self.oracle(articles, search).dropFirst(2).prefix(5)), "\(search), limited")
        }
        #expect(Self.oracle(articles, "release notes 1042").count > 20, "the searches match many")
        // Another filter and a sort apply to the matches.
        let sorted = Article.query(in: context).filter(.string(\.title, \.body, matches: "release")).and(\.tag == "even").sorted(by: \.id).resolve()
        let expected = Self.oracle(articles, "release").filter { Int($0.dropFirst())! % 2 == 0 }.sorted()
        #expect(sorted.map(\.id) == expected)
        // Key paths the index does not cover in that order match as SwiftletModel's plain filter does.
        let plain = Article.query(in: context).filter(.string(\.body, \.title, matches: "release")).resolve().map(\.id)
        #expect(Set(plain) == Set(articles.filter { SwiftletModelOracles.matches($0.body, fuzzy: "release") || SwiftletModelOracles.matches($0.title, fuzzy: "release") }.map(\.id)))
    }

    @Test("ASCII text is cut into the trigrams SwiftletModel cuts, without strings; other text is left to the general path")
    func asciiTrigrams() {
        var random = SeededGenerator(seed: 13)
        let alphabet = Array("abcXYZ019 .,-_\r\n\t'!AZaz09")
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            var keys: [String] = []
            let ascii = SearchTokens.forEachASCIITrigram(of: text) { key in
                keys.append(String(decoding: [UInt8(key >> 16), UInt8(key >> 8 & 0xFF), UInt8(key & 0xFF)], as: UTF8.self))
            }
            #expect(ascii)
            #expect(keys == SwiftletModelOracles.makeTokens(text), "\(text.debugDescription)")
            #expect(FullTextCandidates.terms(of: [text]).count == keys.count)
        }
        #expect(!SearchTokens.forEachASCIITrigram(of: "naïve") { _ in Issue.record("no trigram of a text that is not ASCII") })
        #expect(FullTextCandidates.terms(of: ["Naïve Übung", "ok go"]).text == SwiftletModelOracles.makeTokens("Naïve Übung").map(FullTextCandidates.term).joined(separator: " "))
    }

    @Test("An index declaration is neither encoded nor needed to decode")
    func coding() throws {
        let article = Article(id: "1", title: "T", body: "B", rank: 1, tag: "x")
        let json = try JSONEncoder().encode(article)
        let object = try JSONSerialization.jsonObject(with: json) as! [String: Any]
        #expect(Set(object.keys) == ["id", "title", "body", "rank", "tag"])
        #expect(try JSONDecoder().decode(Article.self, from: json) == article)
        #expect(Article._relataIndexes.map(\.kind) == [.fullText, .sorted, .hashed])
        #expect(Article._relataIndexes.compactMap(\.stored).map(\.properties) == [["title", "body"], ["rank"], ["tag"]])
    }

    /// Saves `articles`, then changes some in later writes; after each, the store's answer to
    /// every search equals the in-memory context's that made the same writes.
    static func checkStore(_ store: Store) async throws {
        var articles = Self.articles(400, seed: 2)
        var reference = Context()
        func compare(_ stage: String) async throws {
            for search in Self.searches {
                let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).resolve().map(\.id) }
                let expected = Article.query(in: reference).filter(.string(\.title, \.body, matches: search)).resolve().map(\.id)
                #expect(found == expected, "\(stage): \(search)")
                #expect(found == Self.oracle(articles, search), "\(stage): \(search), the oracle")
                let best = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).limit(3).resolve().map(\.id) }
                #expect(best == Array(expected.prefix(3)), "\(stage): \(search), the best 3")
            }
        }
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        for article in articles { try article.save(to: &reference) }
        try await compare("saved")
        // Rewrite some, erase some, add some.
        var random = SeededGenerator(seed: 3)
        try await store.write { [articles] context in
            for article in articles.prefix(40) {
                var changed = article
                changed.body = Self.words.shuffled(using: &random).prefix(4).joined(separator: " ")
                try changed.save(to: &context)
            }
            for article in articles.suffix(30) { try article.delete(from: &context) }
            for article in Self.articles(420, seed: 4).suffix(20) { try article.save(to: &context) }
        }
        random = SeededGenerator(seed: 3)
        for index in 0..<40 {
            articles[index].body = Self.words.shuffled(using: &random).prefix(4).joined(separator: " ")
            try articles[index].save(to: &reference)
        }
        for article in articles.suffix(30) { try article.delete(from: &reference) }
        articles.removeLast(30)
        for article in Self.articles(420, seed: 4).suffix(20) {
            try article.save(to: &reference)
            articles.append(article)
        }
        try await compare("changed")
        // Inside a write, the write's own changes are searched too.
        let inside = try await store.write { context -> [String] in
            try Article(id: "new", title: "release notes 1042", body: "release notes 1042", rank: 0, tag: "x").save(to: &context)
            try Article.delete(id: articles[0].id, from: &context)
            return Article.query(in: context).filter(.string(\.title, \.body, matches: "release notes 1042")).resolve().map(\.id)
        }
        #expect(inside.first == "new" && !inside.contains(articles[0].id))
        try await store.close()
    }

    @Test("A store's search answers as the in-memory index does, after saves, changes and erasures", arguments: BackendKind.allCases)
    func store(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        try await Self.checkStore(try await kind.open(harness.backend(), schema: EntitySchema(Article.self)))
    }

    /// The trigrams whose count in `<table>_terms` differs from the number of rows of the table
    /// holding them (a count of 0 is a trigram no row holds).
    static func postgresTermCountsDiffer(_ url: String, schema: String, table: String) throws -> [[String]] {
        try PostgresUpgradeTests.psql(url, """
            SELECT COALESCE(v.term, r.term), v.documents, r.documents FROM "\(schema)".\(table)_terms v
            FULL JOIN (
                SELECT w AS term, count(DISTINCT id) AS documents FROM "\(schema)".\(table), unnest(string_to_array(terms, ' ')) AS w WHERE w <> '' GROUP BY w
            ) r ON r.term = v.term
            WHERE COALESCE(v.documents, 0) <> COALESCE(r.documents, 0)
            """)
    }

    @Test("On PostgreSQL too; its indexes are B-trees on the declared properties' columns and a table of trigrams under a GIN index, made and dropped with the declarations")
    func postgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let name = PostgresStoreTests.schema()
        let backend = try await PostgresBackend.connect(url: url, configuration: .init(schema: name))
        try await Self.checkStore(try await Store(backend: backend, schema: EntitySchema(Article.self)))
        func indexes() throws -> [String] {
            try PostgresUpgradeTests.psql(url, "SELECT indexdef FROM pg_indexes WHERE schemaname = '\(name)' AND indexname LIKE '%\\_x\\_%' ORDER BY indexname").map { $0[0] }
        }
        let made = try indexes()
        #expect(made.count == 2, "\(made)")
        #expect(made.allSatisfy { $0.contains("USING btree (c") }, "\(made)")
        // The full-text index: a table of trigrams under a GIN index, its statistics exact after
        // the saves, changes and erasures.
        func fullTextTables() throws -> [String] {
            try PostgresUpgradeTests.psql(url, "SELECT tablename FROM pg_tables WHERE schemaname = '\(name)' AND tablename LIKE '%\\_fts\\_%' ORDER BY tablename").map { $0[0] }
        }
        let texts = try fullTextTables()
        #expect(texts.count == 3 && texts[1] == texts[0] + "_stat" && texts[2] == texts[0] + "_terms", "\(texts)")
        let gin = try PostgresUpgradeTests.psql(url, "SELECT indexdef FROM pg_indexes WHERE schemaname = '\(name)' AND tablename = '\(texts[0])' AND indexdef LIKE '%gin%'")
        #expect(gin.count == 1, "\(gin)")
        let stat = try PostgresUpgradeTests.psql(url, "SELECT documents, (SELECT count(*) FROM \"\(name)\".\(texts[0])), length = (SELECT sum(length) FROM \"\(name)\".\(texts[0])) FROM \"\(name)\".\(texts[0])_stat")
        #expect(stat == [["390", "390", "t"]], "\(stat)")
        #expect(try Self.postgresTermCountsDiffer(url, schema: name, table: texts[0]).isEmpty, "each trigram's count of rows, exact")
        // A table of trigrams from before the counts were kept (no `_terms`) is made again by
        // the next open, and searches answer as before.
        _ = try PostgresUpgradeTests.psql(url, "DROP TABLE \"\(name)\".\(texts[0])_terms")
        let reopened = try await Store(backend: try await PostgresBackend.connect(url: url, configuration: .init(schema: name)), schema: EntitySchema(Article.self))
        #expect(try fullTextTables() == texts)
        #expect(try Self.postgresTermCountsDiffer(url, schema: name, table: texts[0]).isEmpty, "made again, exact")
        let search = "release notes 1042"
        let found = try await reopened.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).limit(5).resolve().map(\.id) }
        let all = try await reopened.read { Article.query(in: $0).resolve() }
        #expect(found == Array(Self.oracle(all, search).prefix(5)))
        try await reopened.close()
        let plain = try await Store(
            backend: try await PostgresBackend.connect(url: url, configuration: .init(schema: name)), schema: EntitySchema(PlainArticle.self)
        )
        try await plain.write { context in try PlainArticle(id: "p", title: "", body: "", rank: 0, tag: "").save(to: &context) }
        try await plain.close()
        #expect(try indexes().isEmpty, "dropped by the write of a type that no longer declares them")
        #expect(try fullTextTables().isEmpty, "the table of trigrams too")
    }

    @Test("A limited search in a SQLite store gives the best matches in order, also those without the rarest trigram")
    func limitedSearches() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Short texts of a few common words, long texts of every word: the best matches of a
        // search for a common and a rare word are often short texts without the rare one.
        var random = SeededGenerator(seed: 11)
        let vocabulary = (0..<300).map { _ in String(decoding: (0..<5).map { _ in UInt8.random(in: 97...122, using: &random) }, as: UTF8.self) }
        let articles = (0..<600).map { i in
            let words =
                i % 2 == 0
                ? (0..<Int.random(in: 1...3, using: &random)).map { _ in vocabulary[Int.random(in: 0..<4, using: &random)] }
                : (0..<Int.random(in: 30...60, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }
            return Article(id: "a\(i)", title: "", body: words.joined(separator: " "), rank: 0, tag: "")
        }
        var context = Context()
        for article in articles { try article.save(to: &context) }
        let store = try await Store(backend: try SQLiteBackend(path: path), schema: EntitySchema(Article.self), followInterval: nil)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        for _ in 0..<40 {
            let search = vocabulary[Int.random(in: 0..<4, using: &random)] + " " + vocabulary[Int.random(in: 4..<300, using: &random)]
            let count = Int.random(in: 1...12, using: &random)
            let expected = Article.query(in: context).filter(.string(\.title, \.body, matches: search)).resolve().map(\.id)
            let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).limit(count).resolve().map(\.id) }
            #expect(found == Array(expected.prefix(count)), "\(search), \(count)")
        }
        try await store.close()
    }

    @Test("A limited search reads each stored row once, though it holds several of the search's trigrams")
    func rowsReadOnce() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Every trigram of "notes" in the same 12 rows, every trigram of "release" in 300.
        let articles = (0..<300).map { i in
            Article(id: "a\(i)", title: "", body: i < 12 ? "release notes \(i)" : "release \(i)", rank: 0, tag: "")
        }
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Article.self), followInterval: nil)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        let before = backend.fullTextRowsReadCount
        let best = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: "release notes")).limit(5).resolve() }
        #expect(best.map(\.id) == Array(Self.oracle(articles, "release notes").prefix(5)))
        let read = backend.fullTextRowsReadCount - before
        // The 12 rows holding "notes", each once (24 before: again for "ote"); "release" is in
        // every row, its trigrams cannot lift a row without "notes" into the best 5.
        #expect(read == 12, "\(read) rows of the table of trigrams read")
        try await store.close()
    }

    @Test("SQLite keeps a table of trigrams and indexes of the declared properties; a search reads only the best entities")
    func sqliteTables() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let articles = Self.articles(2_000, seed: 7)
        let backend = try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(Article.self), followInterval: nil)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        let before = backend.rowsReadCount, statements = backend.statementCount
        let best = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: "release notes 1042")).limit(10).resolve() }
        #expect(best.map(\.id) == Array(Self.oracle(articles, "release notes 1042").prefix(10)))
        #expect(backend.rowsReadCount - before <= 10 + 10, "read \(backend.rowsReadCount - before) rows")
        // Each trigram's rows in one statement, their words read in the join — not fetched by
        // FTS5 a statement per matching row (FTS5's own statements on its index vary with the
        // connection a read gets: 95 to 280 here).
        #expect(backend.statementCount - statements < 1_000, "\(backend.statementCount - statements) statements (3,637 before)")
        try await store.close()
        let queue = try DatabaseQueue(path: path)
        try await queue.read { db in
            let names = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_x_*' OR name GLOB 'e*_fts_*_stats' ORDER BY name")
            #expect(names.count == 3, "\(names)")
            let index = names.first { $0.contains("_x_") }!.split(separator: "_")
            let plan = try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN SELECT id FROM \(index[0]) WHERE \(index[2]) = 3").map { $0["detail"] as String }.joined()
            #expect(plan.contains("USING INDEX") || plan.contains("USING COVERING INDEX"), "\(plan)")
            let stat = try Row.fetchOne(db, sql: "SELECT documents FROM \(names.first { $0.hasSuffix("_stats") }!)")
            #expect(stat?[0] == 2_000)
        }
    }

    @Test("A full-text table of the earlier layout (the words in FTS5's own content) is made again at the next open")
    func earlierLayout() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let articles = Self.articles(300, seed: 9)
        var store = try await Store(path: path, entities: Article.self)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        try await store.close()
        // The tables as the earlier layout made them, holding one stale row only.
        try await DatabaseQueue(path: path).write { db in
            let name = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_fts_*_stats'")!.dropLast("_stats".count)
            try FullTextTable.drop(String(name), db)
            try db.execute(
                sql: """
                    CREATE VIRTUAL TABLE \(name) USING fts5(terms, tokenize = 'ascii', detail = none);
                    CREATE TABLE \(name)_row (row INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, length INTEGER NOT NULL);
                    CREATE TABLE \(name)_stat (documents INTEGER NOT NULL, length INTEGER NOT NULL);
                    INSERT INTO \(name)_stat (documents, length) VALUES (1, 3);
                    CREATE VIRTUAL TABLE \(name)_terms USING fts5vocab(\(name), 'row');
                    INSERT INTO \(name)_row (row, id, length) VALUES (1, 'a0', 3);
                    INSERT INTO \(name) (rowid, terms) VALUES (1, 'abc bcd cde');
                    """
            )
        }
        store = try await Store(path: path, entities: Article.self)
        for search in Self.searches {
            let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).limit(10).resolve().map(\.id) }
            #expect(found == Array(Self.oracle(articles, search).prefix(10)), "\(search)")
        }
        try await store.close()
        let earlier = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_fts_*_stat' OR name GLOB 'e*_fts_*_row'")
        }
        #expect(earlier.isEmpty, "\(earlier)")
        let documents = try await DatabaseQueue(path: path).read { db -> Int? in
            let name = try String.fetchOne(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_fts_*_stats'")!
            return try Int.fetchOne(db, sql: "SELECT documents FROM \(name)")
        }
        #expect(documents == articles.count, "made again from every stored article")
    }

    @Test("A store whose file holds its declared indexes opens while another connection holds the write lock")
    func opensWithoutTheWriteLock() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let articles = Self.articles(200, seed: 9)
        var store = try await Store(path: path, entities: Article.self)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        try await store.close()
        // Another connection holds the write lock for two seconds, ten times the busy timeout.
        let other = try DatabaseQueue(path: path)
        let locked = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let holder = Thread {
            try? other.inTransaction(.immediate) { _ in
                locked.signal()
                _ = release.wait(timeout: .now() + 2)
                return .rollback
            }
        }
        holder.start()
        locked.wait()
        defer { release.signal() }
        store = try await Store(backend: try SQLiteBackend(path: path, busyTimeout: .milliseconds(200)), schema: EntitySchema(Article.self))
        let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: Self.searches[0])).limit(5).resolve().map(\.id) }
        #expect(found == Array(Self.oracle(articles, Self.searches[0]).prefix(5)))
        try await store.close()
    }

    @Test("On PostgreSQL too, a store whose schema holds its declared indexes opens while another client holds the writers' lock")
    func opensWithoutTheWriteLockPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let configuration = PostgresBackend.Configuration(schema: schema, busyTimeout: .seconds(1))
        let articles = Self.articles(200, seed: 9)
        var store = try await Store(backend: try await PostgresBackend.connect(url: url, configuration: configuration), schema: EntitySchema(Article.self))
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        try await store.close()
        // Another client holds the schema's writers' lock for eight seconds.
        let key = try PostgresSchema(schema: schema).lockKey
        let holder = try PSQLClient.start(url, "SELECT pg_advisory_lock(\(key)); SELECT pg_sleep(8);")
        defer { if holder.isRunning { holder.terminate() } }
        try await waitUntil(seconds: 10) { (PSQLClient.value(url, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted") ?? "0") != "0" }
        store = try await Store(backend: try await PostgresBackend.connect(url: url, configuration: configuration), schema: EntitySchema(Article.self))
        let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: Self.searches[0])).limit(5).resolve().map(\.id) }
        #expect(found == Array(Self.oracle(articles, Self.searches[0]).prefix(5)))
        try await store.close()
    }

    @Test("An index declared later is made and filled from the stored rows; one no longer declared is dropped")
    func declarationsComeAndGo() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let articles = Self.articles(500, seed: 8)
        // The same stored type, first without indexes.
        let plain = articles.map { PlainArticle(id: $0.id, title: $0.title, body: $0.body, rank: $0.rank, tag: $0.tag) }
        var store = try await Store(backend: try SQLiteBackend(path: path), schema: EntitySchema(PlainArticle.self), followInterval: nil)
        try await store.write { context in for article in plain { try article.save(to: &context) } }
        try await store.close()
        func tables() throws -> [String] {
            try DatabaseQueue(path: path).read { db in
                try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_x_*' OR name GLOB 'e*_fts_*' ORDER BY name")
            }
        }
        #expect(try tables().isEmpty)
        store = try await Store(backend: try SQLiteBackend(path: path), schema: EntitySchema(Article.self), followInterval: nil)
        try await store.write { context in try articles[0].save(to: &context) }
        #expect(try tables().contains { $0.hasSuffix("_stats") })
        let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: "naïve chat")).resolve().map(\.id) }
        #expect(found == Self.oracle(articles, "naïve chat"))
        try await store.close()
        store = try await Store(backend: try SQLiteBackend(path: path), schema: EntitySchema(PlainArticle.self), followInterval: nil)
        try await store.write { context in try plain[1].save(to: &context) }
        #expect(try tables().isEmpty)
        try await store.close()
    }

    @Test("A format 7 file upgraded in batches: the full-text table made meanwhile ends with every row's text")
    func upgradedFile() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let articles = Self.articles(SQLiteSchema.upgradeBatch * 2 + 100, seed: 12)
        var store = try await Store(path: path, entities: Article.self)
        try await store.write { context in for article in articles { try article.save(to: &context) } }
        try await store.close()
        try await LegacyStoreFile.downgradeToVersion7(path)
        // Stopped after a batch, then opened again: the table is made while rows are still moving.
        store = try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) { try await Store(path: path, entities: Article.self) }
        try await store.close()
        store = try await SQLiteSchema.$upgradeBatchesBeforeStop.withValue(1) { try await Store(path: path, entities: Article.self) }
        try await store.close()
        store = try await Store(path: path, entities: Article.self)
        for search in Self.searches {
            let found = try await store.read { Article.query(in: $0).filter(.string(\.title, \.body, matches: search)).limit(10).resolve().map(\.id) }
            #expect(found == Array(Self.oracle(articles, search).prefix(10)), "\(search)")
        }
        try await store.close()
        let tables = try await DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE name GLOB 'e*_fts_*_stats'")
        }
        #expect(tables.count == 1, "the search read the table: \(tables)")
    }

    /// `Article` without its indexes, stored under the same name.
    @EntityModel
    struct PlainArticle: Codable {
        static var storedTypeName: String { EntitySchema.qualifiedName(of: Article.self) }
        let id: String
        var title: String
        var body: String
        var rank: Int
        var tag: String
    }
}
