import Foundation
import GRDB
import Relata
import RelataCore
import RelataSQLite
@_spi(Paged) import RelataCore

/// Workload W2 (Benchmarks/README.md): W1's data at a large scale in a SQLite store file built
/// once and reused across runs; every measurement in a fresh process (so memory is honest),
/// beside its baseline in the same run.
enum LargeStoreW2 {
    /// The store file and the GRDB baseline's file of one scale, kept in one folder across runs.
    struct Files {
        let relata: String
        let grdb: String

        init(scale: Double) {
            let folder = LargeStoreW2.folder
            relata = folder.appendingPathComponent("w2-relata-\(scale).sqlite").path
            grdb = folder.appendingPathComponent("w2-grdb-\(scale).sqlite").path
        }

        /// Written when both files are complete; a build cut off is started again, and so is one
        /// of another storage format (the marker names the format it was built with).
        var built: String { relata + ".built-format\(LargeStoreW2.storageFormat)" }
    }

    /// The SQLite storage format the kept files are built in (8: typed property columns).
    static let storageFormat = 9

    static var folder: URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("relata-w2")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// W2 on SQLite at `scale` (the small scale `small` shows that opening does not grow).
    static func run(scale: Double, small: Double, runs: Int) async throws {
        let data = W1Data(scale: scale)
        let chats = data.chatCount / 100
        for s in [small, scale] {
            if let (relata, grdb) = try await build(scale: s) {
                print("W2 store files at S=\(s) built: Store \(format(relata)), GRDB by hand \(format(grdb)) (ratio \(ratio(relata, grdb)))")
            }
        }
        let files = Files(scale: scale), smallFiles = Files(scale: small)
        let megabytes = { (path: String) in ((try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0) / 1_048_576 }
        print("W2 at S=\(scale) (\(data.description); Store file \(megabytes(files.relata)) MB, GRDB file \(megabytes(files.grdb)) MB): median of \(runs) fresh processes a figure, the sides of each ratio in turn")
        let table = Table()
        table.header()

        // Every side of a ratio runs once per round, in turn (`interleaved`): on a shared machine a
        // slow spell falls on both sides, where a block of one side's runs could take it alone.
        let readRuns = try await interleaved(runs, [
            { try await child("w2-grdb-read", path: files.grdb, scale: scale) },
            // A context over storage alone, then the Store: no copy of the data; each read a new
            // context over the last commit.
            { try await child("w2-overlay-read", path: files.relata, scale: scale) },
            { try await child("w2-overlay-read", path: smallFiles.relata, scale: small) },
            { try await child("w2-paged-read", path: files.relata, scale: scale) },
            { try await child("w2-paged-read", path: smallFiles.relata, scale: small) },
            { try await child("w2-user-read", path: files.relata, scale: scale) },
            { try await child("w2-grdb-user-read", path: files.grdb, scale: scale) },
        ])
        let (grdbRead, over, smallOver, paged, smallPaged, user, grdbUser) = (readRuns[0], readRuns[1], readRuns[2], readRuns[3], readRuns[4], readRuns[5], readRuns[6])
        let memory = try await medians(1) { try await child("w2-context-resolve", path: files.relata, scale: scale) }
        precondition(over["resolved"] == grdbRead["resolved"], "resolve over storage: \(over["resolved"] ?? -1) ≠ GRDB \(grdbRead["resolved"] ?? -1)")
        print("  a context over storage alone (Context(over:), SPI: no row cache, no sessions; one context reads everything):")
        table.row("  open at S=\(scale)", over.time("open"), grdbRead.time("open"), "  (until a first read answers; GRDB as above)")
        table.row("  open S=\(scale) / open S=\(small)", over.time("open"), smallOver.time("open"), "  (against itself)")
        table.memory("  RSS after open", over["rss-open"]! - over["rss-before"]!, grdbRead["rss-open"]! - grdbRead["rss-before"]!)
        table.row("  cold resolve (\(chats) chats)", over.time("cold"), grdbRead.time("cold"), "  (GRDB by hand)")
        table.row("    its CPU time", over.time("cpu-cold"), grdbRead.time("cpu-cold"), "  (user and system, every thread)")
        table.count("    statements sent", over["statements-cold"]!, grdbRead["statements-cold"]!, "(\(chats) queries, each one read transaction)")
        table.memory("  RSS after cold resolve", over["rss-cold"]! - over["rss-before"]!, grdbRead["rss-cold"]! - grdbRead["rss-before"]!)
        table.row("  warm resolve (the same chats)", over.time("warm"), memory.time("warm"), "  (baseline: the in-memory Context)")
        table.count("    statements sent", over["statements-warm"]!, 0, "(read transactions only)")
        table.row("  first resolve of another 1%", over.time("other"), grdbRead.time("other"), "  (GRDB by hand)")
        table.memory("  peak RSS (VmHWM)", over["rss-peak"]!, grdbRead["rss-peak"]!)

        // Writes and deletes, each run on a fresh copy; the matched baseline: the same by hand, with
        // the indexes Relata keeps too.
        let writes = try await interleaved(runs, [
            { try await onCopy(files.relata) { try await child("w2-paged-write", path: $0, scale: scale) } },
            { try await onCopy(files.grdb) { try await child("w2-grdb-write", path: $0, scale: scale) } },
            { try await onCopy(files.grdb, matched: true) { try await child("w2-grdb-write", path: $0, scale: scale) } },
            { try await onCopy(files.relata) { try await child("w2-paged-delete", path: $0, scale: scale) } },
            { try await onCopy(files.grdb) { try await child("w2-grdb-delete", path: $0, scale: scale) } },
            { try await onCopy(files.grdb, matched: true) { try await child("w2-grdb-delete", path: $0, scale: scale) } },
        ])
        let (pagedWrite, grdbWrite, matchedWrite, pagedDelete, grdbDelete, matchedDelete) = (writes[0], writes[1], writes[2], writes[3], writes[4], writes[5])
        let smallPath = folder.appendingPathComponent("w2-visibility-small.sqlite").path
        removeDatabase(smallPath)
        defer { removeDatabase(smallPath) }
        let fresh = try await SharedStoreBench.visibility(path: smallPath, commits: 200)

        precondition(user["resolved"] == grdbRead["resolved"] && grdbUser["resolved"] == grdbRead["resolved"], "a user's resolve: \(user["resolved"] ?? -1), GRDB \(grdbUser["resolved"] ?? -1)")
        precondition(paged["resolved"] == grdbRead["resolved"], "resolve, Store over storage: \(paged["resolved"] ?? -1) ≠ GRDB \(grdbRead["resolved"] ?? -1)")
        let pagedCopy = files.relata + ".visibility-paged"
        try copyStore(files.relata, to: pagedCopy)
        defer { removeDatabase(pagedCopy) }
        let pagedBig = try await SharedStoreBench.visibility(path: pagedCopy, commits: 200)
        print("  the Store (Store(backend:), reads storage on demand; rows shared through a 64 MB cache):")
        table.row("  open at S=\(scale)", paged.time("open"), grdbRead.time("open"), "  (until a first read answers; GRDB as above)")
        table.row("  open S=\(scale) / open S=\(small)", paged.time("open"), smallPaged.time("open"), "  (against itself)")
        table.memory("  RSS after open", paged["rss-open"]! - paged["rss-before"]!, grdbRead["rss-open"]! - grdbRead["rss-before"]!)
        table.row("  cold resolve (\(chats) chats)", paged.time("cold"), grdbRead.time("cold"), "  (GRDB by hand)")
        table.row("    its CPU time", paged.time("cpu-cold"), grdbRead.time("cpu-cold"), "  (user and system, every thread)")
        table.count("    statements sent", paged["statements-cold"]!, grdbRead["statements-cold"]!)
        table.row("  a user's program: open", user.time("open"), grdbUser.time("open"), "  (`Store(path:entities:)`; GRDB's `DatabaseQueue(path:)`)")
        table.row("    then the first read, cold", user.time("first-read"), grdbUser.time("first-read"), "  (`try await store.read { resolve }`; GRDB's `try await queue.read`)")
        table.memory("  RSS after cold resolve", paged["rss-cold"]! - paged["rss-before"]!, grdbRead["rss-cold"]! - grdbRead["rss-before"]!)
        table.row("  second resolve (the same chats)", paged.time("warm"), memory.time("warm"), "  (baseline: the in-memory Context; a new context, rows from the cache)")
        table.count("    statements sent", paged["statements-warm"]!, 0)
        table.memory("  peak RSS (VmHWM)", paged["rss-peak"]!, grdbRead["rss-peak"]!)
        table.row("  point write p50, awaited", pagedWrite.time("p50"), grdbWrite.time("p50"), "  (1,000 writes, each one message appended to c\(data.chatCount / 2); GRDB's `await queue.write` by hand)")
        table.row("  point write p99, awaited", pagedWrite.time("p99"), grdbWrite.time("p99"))
        table.row("  point write p50, synchronous", pagedWrite.time("sync-p50"), grdbWrite.time("sync-p50"), "  (`try store.write` on the calling thread; GRDB's `queue.write`)")
        table.row("  point write p99, synchronous", pagedWrite.time("sync-p99"), grdbWrite.time("sync-p99"))
        table.row("  re-save p50, synchronous", pagedWrite.time("resave-p50"), grdbWrite.time("resave-p50"), "  (1,000 of those messages saved again, new text, in their chat now 2,100 long; GRDB's UPDATE by id)")
        table.row("  delete \(chats) chats with cascade", pagedDelete.time("delete"), grdbDelete.time("delete"), "  (\(pagedDelete["left"]!) messages left)")
        table.row("  point write p50 awaited, matched", pagedWrite.time("p50"), matchedWrite.time("p50"), "  (GRDB with the indexes Relata keeps too: message(author), chat_admin(user))")
        table.row("  point write p50 sync, matched", pagedWrite.time("sync-p50"), matchedWrite.time("sync-p50"))
        table.row("  delete \(chats) chats, matched", pagedDelete.time("delete"), matchedDelete.time("delete"))
        table.row("  another process's commit seen, p50", percentile(pagedBig, 0.5), percentile(fresh, 0.5), "  (baseline: a store of 1,000 messages)")
        table.row("  another process's commit seen, p99", percentile(pagedBig, 0.99), percentile(fresh, 0.99))
        let inMB = { (bytes: Int) in Double(bytes) / 1_048_576 }
        // The read targets, for each way of reading.
        func reads(_ name: String, _ figures: Figures, small smallFigures: Figures) -> [Target] {
            [
                Target("\(name)open at S=\(scale) within 1.5x of S=\(small)", figures.time("open").milliseconds / smallFigures.time("open").milliseconds, 1.5, "x"),
                Target("\(name)open within 10x of GRDB's", figures.time("open").milliseconds / grdbRead.time("open").milliseconds, 10, "x"),
                Target("\(name)RSS after open within 20 MB", inMB(figures["rss-open"]! - figures["rss-before"]!), 20, " MB"),
                Target("\(name)RSS after the cold resolve within 60 MB", inMB(figures["rss-cold"]! - figures["rss-before"]!), 60, " MB"),
                Target("\(name)cold resolve at most 1.0x GRDB by hand", figures.time("cold").milliseconds / grdbRead.time("cold").milliseconds, 1.0, "x"),
                Target("\(name)warm resolve at most 1.5x the in-memory Context", figures.time("warm").milliseconds / memory.time("warm").milliseconds, 1.5, "x"),
            ]
        }
        Target.report(
            reads("Store: ", paged, small: smallPaged)
                + [
                    Target("Store: point write p50 at most 2x GRDB (awaited)", pagedWrite.time("p50").milliseconds / grdbWrite.time("p50").milliseconds, 2, "x"),
                    Target("Store: point write p50 at most 2x GRDB (synchronous)", pagedWrite.time("sync-p50").milliseconds / grdbWrite.time("sync-p50").milliseconds, 2, "x"),
                    Target("Store: commit seen in another process, p99 ≤ 20 ms", percentile(pagedBig, 0.99).milliseconds, 20, " ms"),
                ]
                + reads("context over storage alone: ", over, small: smallOver)
        )
        print("")
    }

    /// Builds the files of `scale` unless a complete build is there; the times, or `nil` when reused.
    static func build(scale: Double) async throws -> (Duration, Duration)? {
        let files = Files(scale: scale)
        if FileManager.default.fileExists(atPath: files.built) { return nil }
        removeDatabase(files.relata)
        removeDatabase(files.grdb)
        let data = W1Data(scale: scale)
        var start = ContinuousClock.now
        try await PersistW1.save(data, path: files.relata)
        let relata = ContinuousClock.now - start
        start = ContinuousClock.now
        try GRDBBaselineW1.save(FloorW1.Input(data), path: files.grdb)
        let grdb = ContinuousClock.now - start
        _ = FileManager.default.createFile(atPath: files.built, contents: nil)
        return (relata, grdb)
    }

    /// Copies a closed store file (and its WAL companions) for a run that writes to it.
    static func copyStore(_ path: String, to copy: String) throws {
        removeDatabase(copy)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: path + suffix) {
            try FileManager.default.copyItem(atPath: path + suffix, toPath: copy + suffix)
        }
    }

    /// Runs `body` on a copy of the store file at `path`; `matched`: a GRDB baseline's copy given
    /// the indexes Relata keeps too (``GRDBBaselineW1/matchedIndexes``) first.
    static func onCopy(_ path: String, matched: Bool = false, _ body: (String) async throws -> Figures) async throws -> Figures {
        let copy = path + ".copy"
        try copyStore(path, to: copy)
        defer { removeDatabase(copy) }
        if matched {
            let queue = try DatabaseQueue(path: copy)
            try await queue.write { try $0.execute(sql: GRDBBaselineW1.matchedIndexes) }
            try queue.close()
        }
        return try await body(copy)
    }

    /// The figures' table: a name, Relata's figure, the baseline's, their ratio and a note.
    struct Table {
        func header() { print("  \(pad("figure", 38))\(pad("Relata", 14))\(pad("baseline", 14))ratio") }

        func row(_ name: String, _ relata: Duration, _ baseline: Duration, _ note: String = "") {
            print("  \(pad(name, 38))\(pad(format(relata), 14))\(pad(format(baseline), 14))\(ratio(relata, baseline))\(note)")
        }

        func memory(_ name: String, _ relata: Int, _ baseline: Int, _ note: String = "") {
            print("  \(pad(name, 38))\(pad("+\(relata / 1_048_576) MB", 14))\(pad("+\(baseline / 1_048_576) MB", 14))\(note)")
        }

        func count(_ name: String, _ relata: Int, _ baseline: Int, _ note: String = "") {
            print("  \(pad(name, 38))\(pad("\(relata)", 14))\(pad("\(baseline)", 14))\(note)")
        }
    }

    /// What a child printed: `name value` lines (times in nanoseconds, memory in bytes).
    struct Figures {
        var values: [String: Int] = [:]
        subscript(_ name: String) -> Int? { values[name] }
        func time(_ name: String) -> Duration { .nanoseconds(Int64(values[name] ?? 0)) }
    }

    static func child(_ probe: String, path: String, scale: Double) async throws -> Figures {
        let child = try Child.start(["--probe", probe, "--path", path, "--scale", String(scale)])
        let lines = try await child.finish()
        var figures = Figures()
        for line in lines {
            let fields = line.split(separator: " ")
            if fields.count == 2, let value = Int(fields[1]) { figures.values[String(fields[0])] = value }
        }
        guard child.process.terminationStatus == 0, !figures.values.isEmpty else { throw SharedStoreBench.Failure(lines: lines) }
        return figures
    }

    /// The median of every figure over `runs` children.
    static func medians(_ runs: Int, _ body: @escaping () async throws -> Figures) async throws -> Figures {
        try await interleaved(runs, [body])[0]
    }

    /// The median of every figure of each of `sides` over `runs` rounds, each round running every
    /// side once, in turn.
    static func interleaved(_ runs: Int, _ sides: [() async throws -> Figures]) async throws -> [Figures] {
        var all = [[Figures]](repeating: [], count: sides.count)
        for _ in 0..<runs {
            for (index, side) in sides.enumerated() { all[index].append(try await side()) }
        }
        return all.map { runs in
            var result = Figures()
            for key in runs[0].values.keys {
                let values = runs.compactMap { $0[key] }.sorted()
                result.values[key] = values[values.count / 2]
            }
            return result
        }
    }

    /// The `p` quantile of `values` (seconds, sorted), as a duration.
    static func percentile(_ values: [Double], _ p: Double) -> Duration {
        .nanoseconds(Int64(values[min(values.count - 1, Int(Double(values.count) * p))] * 1e9))
    }

    /// `a / b`, as `12.34x`; a baseline under a nanosecond counts as one (a floor of 0.1 µs once
    /// did, which understated the in-memory ratios whose floor is a dictionary lookup).
    static func ratio(_ a: Duration, _ b: Duration) -> String {
        String(format: "%.2fx", a.milliseconds / max(b.milliseconds, 0.000_001))
    }

    // MARK: - Children (each a fresh process)

    static func say(_ name: String, _ value: Int) { SharedStoreBench.say("\(name) \(value)") }
    static func say(_ name: String, _ value: Duration) {
        say(name, Int(value.components.seconds) * 1_000_000_000 + Int(value.components.attoseconds / 1_000_000_000))
    }

    /// Says the read figures of a child that has just opened `backend` (at `start`, with
    /// `before` bytes resident): open, memory, the cold, warm and other resolves with the
    /// statements each sent, and the peak.
    static func measureReads(
        _ backend: SQLiteBackend, before: Int, start: ContinuousClock.Instant, first: Range<Int>, second: Range<Int>,
        resolve: (Range<Int>) -> Int
    ) {
        say("open", ContinuousClock.now - start)
        say("rss-before", before)
        say("rss-open", residentBytes())
        var statements = backend.statementCount
        say("statements-open", statements)
        func measure(_ name: String, _ chats: Range<Int>) {
            let (start, cpu) = (ContinuousClock.now, SharedStoreBench.cpuSeconds())
            let resolved = resolve(chats)
            say(name, ContinuousClock.now - start)
            say("cpu-\(name)", Duration.seconds(SharedStoreBench.cpuSeconds() - cpu))
            say("statements-\(name)", backend.statementCount - statements)
            statements = backend.statementCount
            if name == "cold" { say("resolved", resolved) }
        }
        measure("cold", first)
        say("rss-cold", residentBytes())
        let warm = median(runs: 5) { _ = resolve(first) }
        say("warm", warm)
        say("statements-warm", (backend.statementCount - statements) / 5)
        statements = backend.statementCount
        measure("other", second)
        say("rss-other", residentBytes())
        say("rss-peak", peakResidentBytes())
    }

    static func runChild(_ probe: String, path: String, scale: Double) async throws {
        let data = (chats: Int(1_000 * scale), users: Int(1_000 * scale))
        let first = 0..<(data.chats / 100), second = (data.chats / 100)..<(2 * data.chats / 100)
        switch probe {
        case "w2-paged-read":
            // The whole-load Store, or the Store over storage (each read a new context over the last commit).
            let before = residentBytes()
            let start = ContinuousClock.now
            let (backend, store) = try await openStore(path)
            _ = try! await store.read { $0.entity(Chat.self, id: "c0") != nil }
            measureReads(backend, before: before, start: start, first: first, second: second) { chats in try! store.read { RelataW1.resolve($0, chats: chats) } }
            try await store.close()
        case "w2-warm-loop":
            // Profiling aid: the Store's warm resolve (a new context each, rows from the cache),
            // RELATA_BENCH_LOOPS times after one cold resolve.
            let (_, store) = try await openStore(path)
            _ = try await store.read { RelataW1.resolve($0, chats: first) }
            let loops = ProcessInfo.processInfo.environment["RELATA_BENCH_LOOPS"].flatMap { Int($0) } ?? 200
            let start = ContinuousClock.now
            for _ in 0..<loops { _ = try await store.read { RelataW1.resolve($0, chats: first) } }
            say("warm-each", (ContinuousClock.now - start) / loops)
            try await store.close()
        case "w2-user-read", "w2-grdb-user-read":
            // A user's program: open, then one `try await … read` resolves the chats (no read
            // before it, nothing timed in between).
            let start = ContinuousClock.now
            let resolved: Int
            if probe == "w2-user-read" {
                let store = try await Store(path: path, entities: User.self, Chat.self, Message.self, Attachment.self)
                say("open", ContinuousClock.now - start)
                let read = ContinuousClock.now
                resolved = try await store.read { RelataW1.resolve($0, chats: first) }
                say("first-read", ContinuousClock.now - read)
                try await store.close()
            } else {
                let queue = try DatabaseQueue(path: path)
                say("open", ContinuousClock.now - start)
                let read = ContinuousClock.now
                resolved = try await queue.read { try GRDBBaselineW1.resolve($0, chats: first) }
                say("first-read", ContinuousClock.now - read)
                try queue.close()
            }
            say("resolved", resolved)
            say("rss-peak", peakResidentBytes())
        case "w2-overlay-read":
            // A context over storage (the paged store's reads, not yet behind Store).
            let before = residentBytes()
            let start = ContinuousClock.now
            let backend = try SQLiteBackend(path: path)
            let context = Context(over: backend, schema: EntitySchema(PersistW1.entities))
            _ = context.entity(Chat.self, id: "c0") != nil
            measureReads(backend, before: before, start: start, first: first, second: second) { chats in RelataW1.resolve(context, chats: chats) }
            if let failure = context.storageFailure { throw failure }
            try backend.close()
        case "w2-grdb-read":
            let before = residentBytes()
            let statements = StatementTally()
            var configuration = Configuration()
            configuration.prepareDatabase { db in StatementTrace.install(statements, on: db) }
            var start = ContinuousClock.now
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            _ = try syncRead(queue) { try Int.fetchOne($0, sql: "SELECT count(*) FROM message") }
            say("open", ContinuousClock.now - start)
            say("rss-before", before)
            say("rss-open", residentBytes())
            var sent = statements.count
            start = ContinuousClock.now
            let cpu = SharedStoreBench.cpuSeconds()
            say("resolved", try GRDBBaselineW1.resolve(queue, chats: first))
            say("cold", ContinuousClock.now - start)
            say("cpu-cold", Duration.seconds(SharedStoreBench.cpuSeconds() - cpu))
            say("statements-cold", statements.count - sent)
            say("rss-cold", residentBytes())
            sent = statements.count
            start = ContinuousClock.now
            _ = try GRDBBaselineW1.resolve(queue, chats: second)
            say("other", ContinuousClock.now - start)
            say("statements-other", statements.count - sent)
            say("rss-other", residentBytes())
            say("rss-peak", peakResidentBytes())
            try queue.close()
        case "w2-context-resolve":
            let context = try RelataW1.save(W1Data(scale: scale))
            say("warm", median(runs: 5) { _ = RelataW1.resolve(context, chats: first) })
            say("rss-peak", peakResidentBytes())
        case "w2-paged-write":
            let (_, store) = try await openStore(path)
            report(try await pointWrites(store, chats: data.chats, users: data.users, prefix: "w2"))
            report(try synchronousPointWrites(store, chats: data.chats, users: data.users, prefix: "w2s"), as: "sync-")
            report(try synchronousPointWrites(store, chats: data.chats, users: data.users, prefix: "w2", text: "edited"), as: "resave-")
            try await store.close()
        case "w2-grdb-write":
            var configuration = Configuration()
            configuration.journalMode = .wal
            configuration.prepareDatabase { try $0.execute(sql: "PRAGMA synchronous = NORMAL") }
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            let chat = data.chats / 2
            let author = W1Data.members(chat: chat, userCount: data.users)[0]
            let insert = """
                INSERT INTO message (id, text, author, chat, position, reply_to)
                VALUES (?, ?, ?, ?, (SELECT coalesce(max(position), -1) + 1 FROM message WHERE chat = ?), NULL)
                """
            var times: [Duration] = []
            for i in 0..<1_000 {
                let start = ContinuousClock.now
                try syncWrite(queue) { db in
                    try db.execute(sql: insert, arguments: ["w2-\(i)", "point \(i)", author, "c\(chat)", "c\(chat)"])
                }
                times.append(ContinuousClock.now - start)
            }
            report(times, as: "sync-")
            // GRDB's `await queue.write`: its queue's thread runs the write, as the Store's writer does.
            times = []
            for i in 0..<1_000 {
                let start = ContinuousClock.now
                try await queue.write { db in
                    try db.execute(sql: insert, arguments: ["w2a-\(i)", "point \(i)", author, "c\(chat)", "c\(chat)"])
                }
                times.append(ContinuousClock.now - start)
            }
            // The same messages saved again: their text, by id (their chat and place unchanged).
            var resaves: [Duration] = []
            for i in 0..<1_000 {
                let start = ContinuousClock.now
                try syncWrite(queue) { db in
                    try db.execute(sql: "UPDATE message SET text = ?, author = ? WHERE id = ?", arguments: ["edited \(i)", author, "w2-\(i)"])
                }
                resaves.append(ContinuousClock.now - start)
            }
            try queue.close()
            report(times)
            report(resaves, as: "resave-")
        case "w2-paged-delete":
            let (backend, store) = try await openStore(path)
            let statements = backend.statementCount
            let start = ContinuousClock.now
            try await store.write { try RelataW1.delete(&$0, chats: first.count) }
            say("delete", ContinuousClock.now - start)
            say("statements-delete", backend.statementCount - statements)
            say("left", try! await store.read { $0.count(of: Message.self) })
            try await store.close()
        case "w2-grdb-delete":
            let queue = try DatabaseQueue(path: path)
            let ids = first.map { "c\($0)" }
            let list = databaseQuestionMarks(count: ids.count)
            let start = ContinuousClock.now
            try syncWrite(queue) { db in
                let arguments = StatementArguments(ids)
                let messages = "SELECT id FROM message WHERE chat IN (\(list))"
                try db.execute(sql: "DELETE FROM attachment WHERE message IN (\(messages))", arguments: arguments)
                try db.execute(sql: "UPDATE message SET reply_to = NULL WHERE reply_to IN (\(messages))", arguments: arguments)
                try db.execute(sql: "DELETE FROM message WHERE chat IN (\(list))", arguments: arguments)
                try db.execute(sql: "DELETE FROM chat_user WHERE chat IN (\(list))", arguments: arguments)
                try db.execute(sql: "DELETE FROM chat_admin WHERE chat IN (\(list))", arguments: arguments)
                try db.execute(sql: "DELETE FROM chat WHERE id IN (\(list))", arguments: arguments)
            }
            say("delete", ContinuousClock.now - start)
            try queue.close()
        default:
            throw SharedStoreBench.Failure(lines: ["unknown probe \(probe)"])
        }
    }

    /// The W2 store at `path`, and its backend: opened as an app opens one (following other
    /// stores' commits, the default), with the row cache `RELATA_BENCH_CACHE_LIMIT` asks for in
    /// bytes (the Store's default when unset; `0` measures its reads without a row cache).
    static func openStore(_ path: String) async throws -> (SQLiteBackend, Store) {
        let backend = try SQLiteBackend(path: path)
        let schema = EntitySchema(PersistW1.entities)
        guard let limit = ProcessInfo.processInfo.environment["RELATA_BENCH_CACHE_LIMIT"].flatMap({ Int($0) }) else {
            return (backend, try await Store(backend: backend, schema: schema))
        }
        return (backend, try await Store(backend: backend, schema: schema, cacheLimit: limit))
    }

    /// 1,000 writes through `store`, each appending one message to the middle chat; their times.
    static func pointWrites(_ store: Store, chats: Int, users: Int, prefix: String) async throws -> [Duration] {
        let chat = chats / 2
        let author = W1Data.members(chat: chat, userCount: users)[0]
        var times: [Duration] = []
        for i in 0..<1_000 {
            let start = ContinuousClock.now
            try await store.write { context in
                try Message(id: "\(prefix)-\(i)", text: "point \(i)", author: .id(author), chat: .id("c\(chat)")).save(to: &context)
            }
            times.append(ContinuousClock.now - start)
        }
        return times
    }

    /// 1,000 writes as ``pointWrites(_:chats:users:prefix:)`` makes, each with the synchronous
    /// `store.write` (on this thread, as GRDB's `queue.write`); `text`: the messages' text (given
    /// ids written already, they are saved again, as a backend's payload brings them).
    static func synchronousPointWrites(
        _ store: Store, chats: Int, users: Int, prefix: String, text: String = "point"
    ) throws -> [Duration] {
        let chat = chats / 2
        let author = W1Data.members(chat: chat, userCount: users)[0]
        var times: [Duration] = []
        for i in 0..<1_000 {
            let start = ContinuousClock.now
            try store.write { context in
                try Message(id: "\(prefix)-\(i)", text: "\(text) \(i)", author: .id(author), chat: .id("c\(chat)")).save(to: &context)
            }
            times.append(ContinuousClock.now - start)
        }
        return times
    }

    /// GRDB's blocking read and write (in an async function, GRDB's async overloads would be chosen).
    static func syncRead<T>(_ queue: DatabaseQueue, _ body: (Database) throws -> T) throws -> T { try queue.read(body) }
    static func syncWrite<T>(_ queue: DatabaseQueue, _ body: (Database) throws -> T) throws -> T { try queue.write(body) }

    /// p50, p99, max and the first of a run of writes, their names starting with `prefix`.
    static func report(_ times: [Duration], as prefix: String = "") {
        let sorted = times.sorted()
        say("\(prefix)first", times[0])
        say("\(prefix)p50", sorted[sorted.count / 2])
        say("\(prefix)p99", sorted[min(sorted.count - 1, sorted.count * 99 / 100)])
        say("\(prefix)max", sorted[sorted.count - 1])
    }
}

/// One of issue 28's targets for W2: a figure, its bound, and whether the figure is within it.
struct Target {
    let name: String
    let value: Double
    let bound: Double
    let unit: String

    init(_ name: String, _ value: Double, _ bound: Double, _ unit: String) {
        self.name = name
        self.value = value
        self.bound = bound
        self.unit = unit
    }

    /// Prints each target: met or not, with the figure beside its bound.
    static func report(_ targets: [Target]) {
        print("  targets (issue 28):")
        for target in targets {
            let figure = String(format: "%.2f", target.value) + target.unit, bound = String(format: "%g", target.bound) + target.unit
            print("    \(target.value <= target.bound ? "met    " : "not met") \(pad(target.name, 56)) \(figure) (bound \(bound))")
        }
    }
}

/// Resident set size of this process now (VmRSS), in bytes.
func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return (line.split(separator: " ").compactMap { Int($0) }.first ?? 0) * 1024
    }
    return 0
}
