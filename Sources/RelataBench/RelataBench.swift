import ArgumentParser
import Foundation
import Relata
@_spi(Paged) import RelataCore

@main
struct RelataBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "relata-bench",
        abstract: "Workload W1 (Benchmarks/README.md): Relata beside the plain-dictionary floor and GRDB."
    )

    @Flag(help: "Run only operation 6 (reorder) and the position-key length report.")
    var orderingOnly = false

    @Flag(help: "Run only operation 5 (persist through a SQLite Store, beside hand-written GRDB).")
    var persistOnly = false

    @Flag(help: "Skip operation 5 (persist), which takes most of the run's time.")
    var skipPersist = false

    @Flag(help: "Run only the benchmark of several processes on one SQLite file.")
    var sharedOnly = false

    @Flag(help: "Run only the observation benchmark.")
    var observationOnly = false

    @Flag(help: "Run only workload W2 (a store larger than a process should hold): its files are built once in $TMPDIR/relata-w2 and reused.")
    var w2 = false

    @Flag(help: "Run only workload W3 (finding things by value): its files are built once in $TMPDIR/relata-w2 and reused.")
    var w3 = false

    @Option(help: "The scale of W3 in storage (S=10: 1,000,000 messages); in memory it runs at --scale.")
    var w3Scale: Double = 10

    @Flag(help: "With --w3 on SQLite: also each query with closure filters, as written before predicates (the \"before\" column; minutes at S=10).")
    var w3Closures = false

    @Option(help: "The scale of W2's large store (S=10: 1,000,000 messages).")
    var w2Scale: Double = 10

    @Option(help: "Run only the PostgreSQL benchmarks, on the server at this URL (postgres://user@host:port/database); they create and drop schemas relata_bench_* and baseline_bench_*.")
    var postgres: String?

    @Option(help: "Writes per process in the benchmark of several processes on one file.")
    var sharedWrites: Int = 500

    @Option(help: "Internal: the store file of a --probe child.")
    var path: String?

    @Option(help: "Internal: the name of a --probe child.")
    var name: String = "w"

    @Option(help: "Internal: how many writes a --probe child makes.")
    var count: Int = 0

    @Option(help: "Scales S to run, comma-separated (S=1: 1,000 users, 1,000 chats, 100,000 messages).")
    var scales: String = "0.1,1,3"

    @Option(help: "Runs per operation; the median is reported.")
    var runs: Int = 3

    @Option(help: "Internal: save W1 at --scale with 'relata' or 'floor' and print the peak RSS in bytes; 'relata-save-loop' saves it --runs times (for profiling).")
    var probe: String?

    @Option(help: "Internal: the scale for --probe.")
    var scale: Double = 1

    func run() async throws {
        if let probe, let path, probe.hasPrefix("shared-") {
            if probe == "shared-append" { try await SharedStoreBench.appendChild(path: path, name: name, count: count) }
            if probe == "shared-check" {
                let backend = try SQLiteBackend(path: path)
                let start = ContinuousClock.now, cpu = SharedStoreBench.cpuSeconds()
                var news = 0
                for _ in 0..<count where try backend.hasNewCommits() { news += 1 }
                print("news: \(news)")
                print("hasNewCommits: \((ContinuousClock.now - start) / count) wall, \((SharedStoreBench.cpuSeconds() - cpu) / Double(count) * 1e6) µs CPU each")
            }
            if probe == "shared-idle" {
                // CPU of an idle store following at --count ms, and of a bare dispatch timer.
                let store = try await Store(backend: SQLiteBackend(path: path), schema: EntitySchema(SharedStoreBench.entities), followInterval: .milliseconds(count))
                var cpu = SharedStoreBench.cpuSeconds()
                try await Task.sleep(for: .seconds(3))
                print("store following every \(count) ms: \((SharedStoreBench.cpuSeconds() - cpu) / 3 * 100)%")
                try await store.close()
                let timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "t"))
                timer.schedule(deadline: .now(), repeating: .milliseconds(count), leeway: .milliseconds(max(1, count / 5)))
                timer.setEventHandler {}
                timer.activate()
                cpu = SharedStoreBench.cpuSeconds()
                try await Task.sleep(for: .seconds(3))
                print("bare timer every \(count) ms: \((SharedStoreBench.cpuSeconds() - cpu) / 3 * 100)%")
                timer.cancel()
            }
            if probe == "shared-commit" { try await SharedStoreBench.commitChild(path: path, count: count, gap: name) }
            return
        }
        if let probe, let path, probe.hasPrefix("w2-pg-") {
            try await LargeStorePostgresW2.runChild(probe, target: path, scale: scale)
            return
        }
        if let probe, let path, probe.hasPrefix("w3-pg-") {
            try await W3Postgres.runChild(probe, target: path, scale: scale)
            return
        }
        if let probe, let path, probe.hasPrefix("w3-") {
            try await W3Bench.runChild(probe, path: path, scale: scale)
            return
        }
        if w3, let postgres {
            try await W3Postgres.run(url: postgres, scale: w3Scale, runs: runs)
            return
        }
        if w3 {
            try await W3Bench.run(scale: w3Scale, memoryScale: scale, runs: runs, closures: w3Closures)
            return
        }
        if let probe, let path, probe.hasPrefix("shape-") {
            try await ShapeProbe.run(probe, path: path)
            return
        }
        if let probe, let path, probe.hasPrefix("w2-") {
            try await LargeStoreW2.runChild(probe, path: path, scale: scale)
            return
        }
        if w2, let postgres {
            try await LargeStorePostgresW2.run(url: postgres, scale: w2Scale, small: 0.1, runs: runs)
            return
        }
        if w2 {
            try await LargeStoreW2.run(scale: w2Scale, small: 0.1, runs: runs)
            return
        }
        if let postgres, probe == "postgres-save" {
            // Profiling aid: W1's save through a PostgreSQL store, alone.
            let start = ContinuousClock.now
            try await PostgresW1.saveOnly(W1Data(scale: scale), url: postgres)
            print("postgres-save: \(format(ContinuousClock.now - start))")
            return
        }
        if let path, probe == "sqlite-save" {
            // Profiling aid: W1's save through a SQLite store at --path, alone.
            removeDatabase(path)
            let start = ContinuousClock.now
            let backend = try SQLiteBackend(path: path)
            let store = try await Store(backend: backend, schema: EntitySchema(PersistW1.entities))
            try await PersistW1.save(W1Data(scale: scale), to: store)
            try await store.close()
            print("sqlite-save: \(format(ContinuousClock.now - start)), \(backend.statementCount) statements")
            return
        }
        if observationOnly {
            try await ObservationBench.run(runs: runs, postgres: postgres)
            return
        }
        if let postgres {
            let scaleList = scales.split(separator: ",").compactMap { Double($0) }
            try await PostgresW1.run(url: postgres, scales: scaleList, runs: runs, writesPerProcess: sharedWrites)
            return
        }
        if sharedOnly {
            try await SharedStoreBench.run(writesPerProcess: sharedWrites)
            return
        }
        if let probe {
            let data = W1Data(scale: scale)
            let floorInput = FloorW1.Input(data)
            if probe == "delete" {
                var context = try RelataW1.save(data)
                let start = ContinuousClock.now
                try RelataW1.delete(&context, chats: min(100, data.chatCount))
                print("delete: \(format(ContinuousClock.now - start))")
                return
            }
            if probe == "delete-loop" {
                // Profiling aid: W1's save then delete of 100 chats, --runs times.
                var total = Duration.zero
                for _ in 0..<runs {
                    var context = try RelataW1.save(data)
                    let start = ContinuousClock.now
                    try RelataW1.delete(&context, chats: min(100, data.chatCount))
                    total += ContinuousClock.now - start
                }
                print("delete-loop: \(format(total))")
                return
            }
            if probe == "dynamic-ownership" {
                let result = try OwnershipBench.run(dynamic: true)
                print("build \(format(result.build)), erase \(format(result.erase))")
                return
            }
            if probe == "reorder-loop" {
                for _ in 0..<runs { _ = try ReorderW1.run() }
                return
            }
            if probe == "related-loop" {
                let context = try RelataW1.save(data)
                var sum = 0
                for _ in 0..<runs { sum += RelataW1.related(context, users: data.userCount) }
                print("related: \(sum)")
                return
            }
            if probe == "resolve-loop" {
                // Profiling aid: W1's resolve of 100 nested chats, --runs times, on one saved context.
                let context = try RelataW1.save(data)
                var sum = 0
                let start = ContinuousClock.now
                for _ in 0..<runs { sum += RelataW1.resolve(context, chats: 100) }
                print("resolve-loop: \(format(ContinuousClock.now - start)) (\(sum) messages)")
                return
            }
            if probe == "context-create" {
                // Profiling aid: 100,000 contexts over storage made (what every read and write
                // of a store starts with), none used.
                let backend = InMemoryBackend()
                let schema = EntitySchema(PersistW1.entities)
                let start = ContinuousClock.now
                var made = 0
                for _ in 0..<100_000 where Context(over: backend, schema: schema).storageFailure == nil { made += 1 }
                print("context-create: \(format(ContinuousClock.now - start)) for \(made)")
                return
            }
            if probe == "relata-save-loop" {
                for _ in 0..<runs { _ = try RelataW1.save(data) }
                return
            }
            if probe == "store-save" || probe == "store-open" {
                // Profiling aids: save W1 to a file that is kept, or open that file.
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-kept.sqlite").path
                let start = ContinuousClock.now
                if probe == "store-save" {
                    removeDatabase(path)
                    try await PersistW1.save(data, path: path)
                } else {
                    let store = try await PersistW1.open(path: path)
                    withExtendedLifetime(store) {}
                }
                print("\(probe): \(format(ContinuousClock.now - start))")
                return
            }
            if probe == "grdb-save" {
                // Profiling aid: the GRDB baseline's save, to a file that is kept.
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-grdb.sqlite").path
                removeDatabase(path)
                let start = ContinuousClock.now
                try GRDBBaselineW1.save(floorInput, path: path)
                print("\(probe): \(format(ContinuousClock.now - start))")
                return
            }
            if probe == "store" {
                let path = FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-probe.sqlite").path
                removeDatabase(path)
                try await PersistW1.save(data, path: path)
                let store = try await PersistW1.open(path: path)
                print(peakResidentBytes())
                withExtendedLifetime(store) {}
                removeDatabase(path)
                return
            }
            if probe == "relata" {
                let context = try RelataW1.save(data)
                print(peakResidentBytes())
                withExtendedLifetime(context) {}
            } else {
                let floor = FloorW1.save(floorInput)
                print(peakResidentBytes())
                withExtendedLifetime(floor) {}
            }
            return
        }
        let scaleList = scales.split(separator: ",").compactMap { Double($0) }
        if orderingOnly {
            try runOrdering()
            return
        }
        if persistOnly {
            for s in scaleList { try await runPersist(s) }
            try await SharedStoreBench.run(writesPerProcess: sharedWrites)
            return
        }
        var results: [(Double, [String: (Duration, Duration)])] = []
        for s in scaleList {
            results.append((s, try runScale(s)))
            if !skipPersist { try await runPersist(s) }
        }
        if let one = results.first(where: { $0.0 == 1 }), let three = results.first(where: { $0.0 == 3 }) {
            print("Growth S=1 → S=3 (3.0 is linear):")
            for op in ["save", "resolve", "related", "delete"] {
                let ratio = three.1[op]!.0.milliseconds / one.1[op]!.0.milliseconds
                print("  \(pad(op, 8)) Relata \(String(format: "%.2f", ratio))x")
            }
            print("")
        }
        if !skipPersist { try await SharedStoreBench.run(writesPerProcess: sharedWrites) }
        try await ObservationBench.run(runs: runs)
        try runOrdering()
    }

    /// W1 operation 5: save through a SQLite Store, close, reopen, resolve; beside GRDB by hand.
    func runPersist(_ s: Double) async throws {
        let data = W1Data(scale: s)
        let input = FloorW1.Input(data)
        let chats = min(100, data.chatCount)
        let directory = FileManager.default.temporaryDirectory
        let relataPath = directory.appendingPathComponent("relata-bench-\(s).sqlite").path
        let grdbPath = directory.appendingPathComponent("relata-bench-grdb-\(s).sqlite").path
        defer { removeDatabase(relataPath); removeDatabase(grdbPath) }
        var relata: [String: [Duration]] = [:], grdb: [String: [Duration]] = [:]
        var resolvedRelata = 0, resolvedGRDB = 0
        for _ in 0..<runs {
            removeDatabase(relataPath)
            var start = ContinuousClock.now
            try await PersistW1.save(data, path: relataPath)
            relata["save", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            let store = try await PersistW1.open(path: relataPath)
            relata["open", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            resolvedRelata = RelataW1.resolve(store.context, chats: chats)
            relata["first resolve", default: []].append(ContinuousClock.now - start)
            // Then as the in-memory W1 resolve is measured: the median of repeated runs.
            relata["resolve", default: []].append(median(runs: 15) { _ = RelataW1.resolve(store.context, chats: chats) })
            try await store.close()

            removeDatabase(grdbPath)
            start = ContinuousClock.now
            try GRDBBaselineW1.save(input, path: grdbPath, matched: true)
            grdb["save matched", default: []].append(ContinuousClock.now - start)
            removeDatabase(grdbPath)
            start = ContinuousClock.now
            try GRDBBaselineW1.save(input, path: grdbPath)
            grdb["save", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            let queue = try GRDBBaselineW1.open(path: grdbPath)
            grdb["open", default: []].append(ContinuousClock.now - start)
            start = ContinuousClock.now
            resolvedGRDB = try GRDBBaselineW1.resolve(queue, chats: chats)
            grdb["first resolve", default: []].append(ContinuousClock.now - start)
            grdb["resolve", default: []].append(try median(runs: 15) { _ = try GRDBBaselineW1.resolve(queue, chats: chats) })
            try queue.close()
        }
        precondition(resolvedRelata == resolvedGRDB, "resolve: Relata \(resolvedRelata) ≠ GRDB \(resolvedGRDB)")
        let memory = probeMemory("store", s)
        func middle(_ times: [Duration]) -> Duration { times.sorted()[times.count / 2] }
        print("W1 op 5 (persist) at S=\(s): SQLite Store beside GRDB by hand, median of \(runs) runs")
        print("  \(pad("op", 15))\(pad("Relata", 12))\(pad("GRDB", 12))ratio")
        for op in ["save", "save matched", "open", "first resolve", "resolve"] {
            let r = middle(relata[op == "save matched" ? "save" : op]!), g = middle(grdb[op]!)
            let ratio = r.milliseconds / max(g.milliseconds, 0.0001)
            let note = op == "save matched" ? "  (GRDB with the indexes Relata keeps)" : op == "resolve" ? "  (\(resolvedRelata) messages; median of 15 on the reopened store)" : op == "first resolve" ? "  (the first, on cold caches)" : ""
            print("  \(pad(op, 15))\(pad(format(r), 12))\(pad(format(g), 12))Relata/GRDB \(String(format: "%.2f", ratio))x\(note)")
        }
        print("  peak RSS after save, close and reopen: Relata \(memory / 1_048_576) MB (separate process)")
        print("")
    }

    /// The ownership workload: 10,000 owners, 100,000 items with 1–3 owners, erase all owners.
    func runOwnership() throws {
        print("Ownership: 10,000 owners, 100,000 items with 1-3 owners each; erase every owner")
        for (name, dynamic) in [("declared .cascadeOrphans", false), ("dynamic owns", true)] {
            let result = try OwnershipBench.run(dynamic: dynamic)
            print("  \(pad(name, 26))build \(pad(format(result.build), 10)) erase \(pad(format(result.erase), 10)) \(result.erased) entities erased, \(result.left) left")
        }
        print("")
    }

    /// W1 operation 6 and the key-length report (independent of S).
    func runOrdering() throws {
        try runOwnership()
        var results: [ReorderW1.Result] = []
        for _ in 0..<runs { results.append(try ReorderW1.run()) }
        let result = results.sorted { $0.moves < $1.moves }[results.count / 2]
        let perMove = result.moves.milliseconds * 1_000 / Double(result.moveCount)
        print("W1 op 6 (reorder): 10,000 ordered messages in one chat, 1,000 random moves, median of \(runs) runs")
        print("  build by 10,000 appends: \(format(result.build))")
        print("  moves: \(format(result.moves)) total, \(String(format: "%.1f", perMove)) µs per move")
        print("  links written per move: \(String(format: "%.2f", Double(result.linksWritten) / Double(result.moveCount)))")
        print("  OrderedRelationship's random-Int scheme, same operations: \(result.randomIntAppendWrites) positions written for the 10,000 appends (Relata: 10,000), \(result.randomIntMoveWrites) for the 1,000 moves (Relata: \(result.linksWritten)); \(result.randomIntRewrites) full rewrites")
        print("")
        print("Position key length (characters):")
        for (name, lengths) in [
            ("100,000 random inserts and moves", KeyLengthReport.randomInsertsAndMoves()),
            ("10,000 appends at the end", KeyLengthReport.appends()),
            ("10,000 prepends", KeyLengthReport.prepends()),
        ] {
            print("  \(pad(name, 34)) mean \(String(format: "%.2f", lengths.mean)), max \(lengths.max) (\(lengths.count) keys)")
        }
    }

    func runScale(_ s: Double) throws -> [String: (Duration, Duration)] {
        let data = W1Data(scale: s)
        let floorInput = FloorW1.Input(data)
        let resolveChats = min(100, data.chatCount)

        // Each operation's Relata and floor runs alternate (see `pairedMedians`).
        // 1. save
        let (relataSave, floorSave) = try pairedMedians(runs: runs, { _ = try RelataW1.save(data) }, { _ = FloorW1.save(floorInput) })
        let context = try RelataW1.save(data)
        let floor = FloorW1.save(floorInput)

        // 2. resolve
        var resolvedRelata = 0, resolvedFloor = 0
        // Operations of a few milliseconds or less: more runs, so one descheduling on a shared
        // machine does not decide the median.
        let quickRuns = max(runs, 15)
        let (relataResolve, floorResolve) = pairedMedians(
            runs: quickRuns, { resolvedRelata = RelataW1.resolve(context, chats: resolveChats) }, { resolvedFloor = floor.resolve(chats: resolveChats) }
        )
        precondition(resolvedRelata == resolvedFloor, "resolve: Relata \(resolvedRelata) ≠ floor \(resolvedFloor)")

        // 3. related
        var relatedRelata = 0, relatedFloor = 0
        let (relataRelated, floorRelated) = pairedMedians(
            runs: quickRuns, { relatedRelata = RelataW1.related(context, users: data.userCount) }, { relatedFloor = floor.related(users: data.userCount) }
        )
        precondition(relatedRelata == relatedFloor, "related: Relata \(relatedRelata) ≠ floor \(relatedFloor)")

        // 4. delete (each run on a freshly saved, uniquely owned store; setup untimed)
        var left = 0, floorLeft = 0
        let (relataDelete, floorDelete) = try pairedMedians(
            runs: runs,
            { try RelataW1.save(data) },
            { context in
                try RelataW1.delete(&context, chats: resolveChats)
                left = context.count(of: Message.self)
            },
            { FloorW1.save(floorInput) },
            { floor in
                floor.delete(chats: resolveChats)
                floorLeft = floor.messages.count
            }
        )
        precondition(left == floorLeft, "delete: Relata left \(left) ≠ floor \(floorLeft)")

        let relataMemory = probeMemory("relata", s)
        let floorMemory = probeMemory("floor", s)

        print("W1 at S=\(s) (\(data.description)), median of \(runs) runs (resolve and related: \(max(runs, 15))), Relata and floor in turn")
        print("  \(pad("op", 9))\(pad("Relata", 12))\(pad("floor", 12))ratio")
        let rows: [(String, Duration, Duration, String)] = [
            ("save", relataSave, floorSave, ""),
            ("resolve", relataResolve, floorResolve, "  (\(resolvedRelata) messages)"),
            ("related", relataRelated, floorRelated, "  (\(relatedRelata) chat ids)"),
            ("delete", relataDelete, floorDelete, "  (\(left) messages left)"),
        ]
        var table: [String: (Duration, Duration)] = [:]
        for (op, relata, floor, note) in rows {
            let ratio = relata.milliseconds / max(floor.milliseconds, 0.0001)
            print("  \(pad(op, 9))\(pad(format(relata), 12))\(pad(format(floor), 12))Relata/floor \(String(format: "%.1f", ratio))x\(note)")
            table[op] = (relata, floor)
        }
        print("  peak RSS after save: Relata \(relataMemory / 1_048_576) MB, floor \(floorMemory / 1_048_576) MB (separate processes, input data included)")
        // The invariant check: linear in links (every link's other side is one lookup).
        let check = try median(runs: runs) { try context.checkInvariants() }
        let perMessage = check.milliseconds * 1_000_000 / Double(data.messageCount)
        print("  checkInvariants: \(format(check)) (\(String(format: "%.0f", perMessage)) ns per message)")
        print("")
        return table
    }

    func probeMemory(_ system: String, _ s: Double) -> Int {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        process.arguments = ["--probe", system, "--scale", String(s)]
        let pipe = Pipe()
        process.standardOutput = pipe
        do {
            try process.run()
        } catch {
            return 0
        }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Int(String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }
}
