import Foundation
import GRDB
import Relata
import RelataCore
import RelataSQLite

/// Workload W3 (Benchmarks/README.md): finding things by value, each query in fresh processes
/// (cold: open and the first answer; warm: again in that process) beside GRDB by hand with the
/// same indexes, and in memory beside the floor.
enum W3Bench {
    static let entities: [any EntityModelProtocol.Type] = [W3User.self, W3Chat.self, W3Message.self]
    static let queries = ["Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8"]
    typealias Figures = LargeStoreW2.Figures

    struct Files {
        let relata: String, grdb: String
        init(scale: Double) {
            relata = LargeStoreW2.folder.appendingPathComponent("w3-relata-\(scale).sqlite").path
            grdb = LargeStoreW2.folder.appendingPathComponent("w3-grdb-\(scale).sqlite").path
        }
        /// Written when both files are complete: the build times (W), in nanoseconds.
        var built: String { relata + ".built-format\(LargeStoreW2.storageFormat)" }
    }

    /// - Parameter closures: Also each query as written before Relata had predicates
    ///   (``W3ClosureQueries``), in the same run: the last column.
    static func run(scale: Double, memoryScale: Double, runs: Int, closures: Bool = false) async throws {
        let data = W3Data(scale: scale), files = Files(scale: scale)
        let build = try await self.build(data, files)
        print("W3 at S=\(scale) (\(data.description)) on SQLite: median of \(runs) fresh processes; in memory at S=\(memoryScale)")
        print("  \(pad("query", 34))\(pad("Relata", 12))\(pad("GRDB", 12))\(pad("ratio", 9))\(pad("statements", 12))\(pad("answers", 16))"
            + (closures ? "closure filters (before; answers)" : ""))
        let table = LargeStoreW2.Table()
        for query in queries {
            // Each round runs every form once, in turn (see `LargeStoreW2.interleaved`).
            let forms = ["w3-relata-", "w3-grdb-"] + (closures && query != "Q5" ? ["w3-closure-"] : [])
            let figures = try await LargeStoreW2.interleaved(runs, forms.map { form in
                { try await LargeStoreW2.child("\(form)\(query)", path: form == "w3-grdb-" ? files.grdb : files.relata, scale: scale) }
            })
            let (relata, grdb) = (figures[0], figures[1])
            printRows(query, relata, grdb, before: figures.count > 2 ? figures[2] : nil)
            if query == "Q6" {
                table.memory("  Q6 RSS after the scan", relata["rss-after"]! - relata["rss-before"]!, grdb["rss-after"]! - grdb["rss-before"]!)
                table.memory("  Q6 peak RSS (VmHWM)", relata["rss-peak"]!, grdb["rss-peak"]!)
            }
        }
        if let build {
            print("  \(pad("W  build through Store.write", 34))\(pad(formatFine(build.relata), 12))\(pad(formatFine(build.grdb), 12))"
                + "\(LargeStoreW2.ratio(build.relata, build.grdb))  (writes of 1,000; GRDB with the same indexes and FTS5)")
        }
        let memory = try await LargeStoreW2.child("w3-memory", path: files.relata, scale: memoryScale)
        print("  in memory at S=\(memoryScale): the Context beside the floor (plain arrays, indexes kept by hand), warm, median of 5")
        for query in queries {
            print("  \(pad("\(query) \(title(query))", 34))\(pad(formatFine(memory.time("relata-\(query)")), 12))\(pad(formatFine(memory.time("floor-\(query)")), 12))"
                + "\(pad(LargeStoreW2.ratio(memory.time("relata-\(query)"), memory.time("floor-\(query)")), 9))\(pad("", 12))"
                + (memory["right-\(query)"] == 1 ? "right" : "WRONG"))
        }
        print("")
    }

    /// The cold and warm rows of `query`: Relata's figure, the baseline's, their ratio, the
    /// statements (round trips) each sent, and whether each answered right.
    /// `before`: the same query with closure filters (``W3ClosureQueries``), if measured.
    static func printRows(_ query: String, _ relata: Figures, _ baseline: Figures, before: Figures? = nil) {
        for phase in ["cold", "warm"] {
            let statements = "\(relata["statements-\(phase)"] ?? -1) / \(baseline["statements-\(phase)"] ?? -1)"
            let answers = (relata["right"] == 1 ? "right" : "WRONG") + " / " + (baseline["right"] == 1 ? "right" : "WRONG")
            let closures = before.map { "\(formatFine($0.time(phase))) (\($0["right"] == 1 ? "right" : "WRONG"))" } ?? ""
            print("  \(pad("\(query) \(title(query)) \(phase)", 34))\(pad(formatFine(relata.time(phase)), 12))\(pad(formatFine(baseline.time(phase)), 12))"
                + "\(pad(LargeStoreW2.ratio(relata.time(phase), baseline.time(phase)), 9))\(pad(statements, 12))\(pad(answers, 16))\(closures)")
        }
    }

    /// Times below 0.1 ms in microseconds (the floor answers in microseconds).
    static func formatFine(_ duration: Duration) -> String {
        duration.milliseconds < 0.1 ? String(format: "%.2f µs", duration.milliseconds * 1_000) : format(duration)
    }

    static func title(_ query: String) -> String {
        switch query {
        case "Q1": "user by e-mail"
        case "Q2": "20 newest after a date"
        case "Q3": "count unread"
        case "Q4": "aged 30…39, page 3"
        case "Q5": "full text, 20 best"
        case "Q6": "scan for \"99999\""
        case "Q7": "Q2 with author, chat"
        default: "Q2 inside a write"
        }
    }

    /// Builds the files unless a complete build is there; the build times (W) when built now.
    static func build(_ data: W3Data, _ files: Files) async throws -> (relata: Duration, grdb: Duration)? {
        if FileManager.default.fileExists(atPath: files.built) { return nil }
        removeDatabase(files.relata)
        removeDatabase(files.grdb)
        var start = ContinuousClock.now
        let store = try await Store(backend: SQLiteBackend(path: files.relata), schema: EntitySchema(entities))
        try await save(data, to: store)
        try await store.close()
        let relata = ContinuousClock.now - start
        start = ContinuousClock.now
        try W3GRDB.save(data, path: files.grdb)
        let grdb = ContinuousClock.now - start
        _ = FileManager.default.createFile(atPath: files.built, contents: nil)
        return (relata, grdb)
    }

    /// Saves W3's data through `store`: users and chats in one write, then one per 1,000 messages.
    static func save(_ data: W3Data, to store: Store) async throws {
        try await store.write { context in
            for i in 0..<data.userCount { try data.user(i).save(to: &context) }
            for i in 0..<data.chatCount { try data.chat(i).save(to: &context) }
        }
        for first in stride(from: 0, to: data.messageCount, by: 1_000) {
            let batch = (first..<min(first + 1_000, data.messageCount)).map(data.message)
            try await store.write { context in
                for message in batch { try message.save(to: &context) }
            }
        }
    }

    // MARK: - Children

    struct Rollback: Error {}

    /// The ten messages Q8's write saves: newer than every stored one.
    static func newer(_ data: W3Data) -> [W3Message] {
        (0..<10).map { k in
            let j = data.messageCount + k
            return W3Message(id: "n\(k)", text: "new \(k)", sentAt: W3Data.sentAt(j), isRead: false, author: .id("u0"), chat: .id("c0"))
        }
    }

    /// Whether `answer` is the right one for `query`.
    static func isRight(_ query: String, _ answer: [String], _ data: W3Data) -> Bool {
        switch query {
        case "Q2", "Q7": answer == data.newest
        case "Q4": answer == data.agedPage
        case "Q5": Set(answer.prefix(data.bestMatches.count)) == data.bestMatches
        case "Q6": answer == data.scannedIDs
        case "Q8": answer == (0..<10).reversed().map { "n\($0)" } + data.newest.prefix(10)
        default: false
        }
    }

    static func runChild(_ probe: String, path: String, scale: Double) async throws {
        let data = W3Data(scale: scale)
        if probe == "w3-memory" { return try runMemory(data) }
        if probe == "w3-overhead" { return try await W3Overhead.run(data, path: path) }
        if probe == "w3-build" {
            // W's Relata half alone, into a new store at `path` (for profiling).
            removeDatabase(path)
            let start = ContinuousClock.now
            let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(entities))
            try await save(data, to: store)
            try await store.close()
            return LargeStoreW2.say("build", ContinuousClock.now - start)
        }
        if probe == "w3-open" {
            // A cold Q1 in parts (for profiling): the open, the first read, a second read; then a
            // second store opened in the same process and its first read (what the first open
            // pays once per process, the difference).
            func timed<T>(_ name: String, _ body: () async throws -> T) async throws -> T {
                let start = ContinuousClock.now
                let result = try await body()
                LargeStoreW2.say(name, ContinuousClock.now - start)
                return result
            }
            let open = { try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(entities)) }
            let lookup = { (store: Store) in _ = try await store.read { W3Queries.user(email: data.lookupEmails()[0], in: $0) } }
            let store = try await timed("open", open)
            try await timed("first-read") { try await lookup(store) }
            try await timed("second-read") { try await lookup(store) }
            let again = try await timed("open-again", open)
            try await timed("first-read-again") { try await lookup(again) }
            return
        }
        let query = String(probe.suffix(2))
        let before = residentBytes()
        let start = ContinuousClock.now
        if probe.hasPrefix("w3-relata-") || probe.hasPrefix("w3-closure-") {
            let form: any W3QueryForm.Type = probe.hasPrefix("w3-closure-") ? W3ClosureQueries.self : W3Queries.self
            let backend = try SQLiteBackend(path: path)
            let store = try await Store(backend: backend, schema: EntitySchema(entities))
            let ask = answer(store, query, data, form)
            try await measure(query, data, start: start, before: before, statements: { backend.statementCount }, answer: ask) { email in
                try await store.read { form.user(email: email, in: $0) }
            }
            try await store.close()
        } else {
            // Statements this program sent (not FTS5's own reads of its tables), counted as
            // Relata's are.
            let statements = StatementTally()
            var configuration = Configuration()
            configuration.prepareDatabase { db in StatementTrace.install(statements, on: db) }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let answer: @Sendable () async throws -> [String] = {
                switch query {
                case "Q1": return try await queue.read { [try W3GRDB.user(email: data.lookupEmails()[0], $0) ?? ""] }
                case "Q2": return try await queue.read { try W3GRDB.newest(after: data.after, $0) }
                case "Q3": return try await queue.read { ["\(try W3GRDB.unread($0))"] }
                case "Q4": return try await queue.read { try W3GRDB.agedPage($0) }
                case "Q5": return try await queue.read { try W3GRDB.search(W3Data.search, $0) }
                case "Q6": return try await queue.read { try W3GRDB.scan(W3Data.scanned, $0) }
                case "Q7": return try await queue.read { try W3GRDB.newestNested(after: data.after, $0).map { $0[0] as String } }
                default:
                    return try await queue.writeWithoutTransaction { db in
                        var result: [String] = []
                        try db.inTransaction {
                            let insert = try db.cachedStatement(
                                sql: "INSERT INTO message (id, text, sent_at, is_read, author, chat, position) VALUES (?, ?, ?, ?, ?, ?, ?)"
                            )
                            for (k, message) in newer(data).enumerated() {
                                try insert.execute(arguments: [message.id, message.text, message.sentAt.timeIntervalSince1970, false, "u0", "c0", data.messageCount + k])
                            }
                            result = try W3GRDB.newest(after: data.after, db)
                            return .rollback
                        }
                        return result
                    }
                }
            }
            try await measure(query, data, start: start, before: before, statements: { statements.count }, answer: answer) { email in
                try await queue.read { try W3GRDB.user(email: email, $0) }
            }
            try queue.close()
        }
    }

    /// One answer to `query` through `store`, in the form `Q` writes it, as a user's program asks
    /// it: one `try await store.read` (Q8: one write, rolled back).
    static func answer(_ store: Store, _ query: String, _ data: W3Data, _ Q: any W3QueryForm.Type) -> @Sendable () async throws -> [String] {
        {
            switch query {
            case "Q1": return try await store.read { [Q.user(email: data.lookupEmails()[0], in: $0) ?? ""] }
            case "Q2": return try await store.read { Q.newest(after: data.after, in: $0) }
            case "Q3": return try await store.read { ["\(Q.unread(in: $0))"] }
            case "Q4": return try await store.read { Q.agedPage(in: $0) }
            case "Q5": return try await store.read { Q.search(W3Data.search, in: $0) }
            case "Q6": return try await store.read { Q.scan(W3Data.scanned, in: $0) }
            case "Q7": return try await store.read { Q.newestNested(after: data.after, in: $0).compactMap { $0.author == nil ? nil : $0.id } }
            default:
                var result: [String] = []
                do {
                    try await store.write { context in
                        for message in newer(data) { try message.save(to: &context) }
                        result = Q.newest(after: data.after, in: context)
                        throw Rollback()
                    }
                } catch is Rollback {}
                return result
            }
        }
    }

    /// Says the figures of one query: cold (from `start`, the open included) and warm, with the
    /// statements each sent, whether the answers were right, and memory.
    static func measure(
        _ query: String, _ data: W3Data, start: ContinuousClock.Instant, before: Int, statements: () -> Int,
        answer: () async throws -> [String], lookup: (String) async throws -> String?
    ) async throws {
        var right = true
        func check(_ result: [String]) {
            switch query {
            case "Q1": right = right && result == ["u0"]
            case "Q3": right = right && result == ["\(data.unread)"]
            default: right = right && isRight(query, result, data)
            }
        }
        check(try await answer())
        let cold = ContinuousClock.now - start
        LargeStoreW2.say("cold", cold)
        LargeStoreW2.say("statements-cold", statements())
        var sent = statements()
        var times: [Duration] = []
        if query == "Q1" {
            // 1,000 e-mails, each its own read; the median of one lookup.
            for (k, email) in data.lookupEmails().enumerated() {
                let start = ContinuousClock.now
                let found = try await lookup(email)
                times.append(ContinuousClock.now - start)
                right = right && found == "u\((k * 7_919) % data.userCount)"
            }
        } else {
            // Three more answers (RELATA_BENCH_WARM, for profiling); one when an answer takes
            // seconds (a whole-type scan at S=10).
            let repeats = ProcessInfo.processInfo.environment["RELATA_BENCH_WARM"].flatMap(Int.init) ?? 3
            for _ in 0..<(cold > .seconds(5) ? 1 : repeats) {
                let start = ContinuousClock.now
                let result = try await answer()
                times.append(ContinuousClock.now - start)
                check(result)
            }
        }
        LargeStoreW2.say("warm", times.sorted()[times.count / 2])
        LargeStoreW2.say("statements-warm", (statements() - sent) / times.count)
        sent = statements()
        LargeStoreW2.say("right", right ? 1 : 0)
        LargeStoreW2.say("rss-before", before)
        LargeStoreW2.say("rss-after", residentBytes())
        LargeStoreW2.say("rss-peak", peakResidentBytes())
    }

    /// The in-memory `Context` at `data`'s scale beside the floor: each query warm, median of 5.
    static func runMemory(_ data: W3Data) throws {
        let floor = W3Floor(data)
        var context = Context()
        for i in 0..<data.userCount { try data.user(i).save(to: &context) }
        for i in 0..<data.chatCount { try data.chat(i).save(to: &context) }
        for j in 0..<data.messageCount { try data.message(j).save(to: &context) }
        let emails = data.lookupEmails(100)
        // Five runs per query (RELATA_BENCH_WARM runs, for profiling).
        let runs = ProcessInfo.processInfo.environment["RELATA_BENCH_WARM"].flatMap(Int.init) ?? 5
        // One query only (RELATA_BENCH_QUERY, for profiling).
        for query in queries where ProcessInfo.processInfo.environment["RELATA_BENCH_QUERY"].map({ $0 == query }) ?? true {
            var relataAnswer: [String] = [], floorAnswer: [String] = []
            let relata: Duration, floorTime: Duration
            switch query {
            case "Q1":
                relata = median(runs: runs) { relataAnswer = emails.compactMap { W3Queries.user(email: $0, in: context) } } / emails.count
                floorTime = median(runs: runs) { floorAnswer = emails.compactMap { floor.user(email: $0) } } / emails.count
            case "Q2":
                relata = median(runs: runs) { relataAnswer = W3Queries.newest(after: data.after, in: context) }
                floorTime = median(runs: runs) { floorAnswer = floor.newest(after: data.after).map { floor.messageIDs[$0] } }
            case "Q3":
                relata = median(runs: runs) { relataAnswer = ["\(W3Queries.unread(in: context))"] }
                floorTime = median(runs: runs) { floorAnswer = ["\(floor.unread)"] }
            case "Q4":
                relata = median(runs: runs) { relataAnswer = W3Queries.agedPage(in: context) }
                floorTime = median(runs: runs) { floorAnswer = floor.agedPage() }
            case "Q5":
                relata = median(runs: runs) { relataAnswer = W3Queries.search(W3Data.search, in: context) }
                floorTime = median(runs: runs) { floorAnswer = floor.search(W3Data.search) }
            case "Q6":
                relata = median(runs: runs) { relataAnswer = W3Queries.scan(W3Data.scanned, in: context) }
                floorTime = median(runs: runs) { floorAnswer = floor.scan(W3Data.scanned) }
            case "Q7":
                relata = median(runs: runs) { relataAnswer = W3Queries.newestNested(after: data.after, in: context).compactMap { $0.author?.name == nil ? nil : $0.id } }
                floorTime = median(runs: runs) { floorAnswer = floor.newestNested(after: data.after).map(\.0) }
            default:
                // Each run saves into a copy of the context (of the floor's arrays), made with the
                // first message before the clock starts: the copy-on-write of 100,000 messages'
                // tables is not the write's (a context saved to in place never copies them). Timed:
                // the other nine saves, then the query, which places them among the others.
                let newer = newer(data)
                relata = try median(runs: runs, setup: { () throws -> Context in
                    var copy = context
                    try newer[0].save(to: &copy)
                    return copy
                }) { copy in
                    for message in newer.dropFirst() { try message.save(to: &copy) }
                    relataAnswer = W3Queries.newest(after: data.after, in: copy)
                }
                floorTime = median(runs: runs, setup: { () -> W3Floor in
                    var copy = floor
                    copy.insert(newer[0], author: 0, chat: "c0")
                    return copy
                }) { copy in
                    for message in newer.dropFirst() { copy.insert(message, author: 0, chat: "c0") }
                    floorAnswer = copy.newest(after: data.after).map { copy.messageIDs[$0] }
                }
            }
            let right: Bool
            switch query {
            case "Q1": right = relataAnswer == floorAnswer && relataAnswer.count == emails.count
            case "Q3": right = relataAnswer == ["\(data.unread)"] && floorAnswer == relataAnswer
            default: right = isRight(query, relataAnswer, data) && isRight(query, floorAnswer, data)
            }
            LargeStoreW2.say("relata-\(query)", relata)
            LargeStoreW2.say("floor-\(query)", floorTime)
            LargeStoreW2.say("right-\(query)", right ? 1 : 0)
        }
    }
}
