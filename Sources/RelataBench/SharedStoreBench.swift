import Foundation
import Relata
@_spi(Paged) import RelataCore
import RelataPostgres

/// Several processes on one store (relata-bench spawns itself as the writers) — a SQLite file,
/// or a PostgreSQL database with `postgres`: commits per second with 1, 2 and 4 writing
/// processes, how soon a commit of another process is seen by a store that follows the storage
/// without `refresh()`, and what following costs an idle process.
///
/// A store is named by a target: a file path, or `postgres://…#schema`.
enum SharedStoreBench {
    static let entities: [any EntityModelProtocol.Type] = [User.self, Chat.self, Message.self, Attachment.self]

    static func open(_ target: String, follow: Bool = true) async throws -> Store {
        let interval: Duration? = follow ? .milliseconds(10) : nil
        if target.hasPrefix("postgres") {
            let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
            let backend = try await PostgresBackend.connect(url: parts[0], configuration: .init(schema: parts.count == 2 ? parts[1] : "public"))
            return try await Store(backend: backend, schema: EntitySchema(entities), followInterval: interval)
        }
        return try await Store(backend: SQLiteBackend(path: target), schema: EntitySchema(entities), followInterval: interval)
    }

    /// The file whose creation starts the writers of `target`.
    static func goFile(_ target: String) -> String {
        guard target.hasPrefix("postgres") else { return target + ".go" }
        let schema = target.split(separator: "#").last.map(String.init) ?? "public"
        return FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-\(schema).go").path
    }

    static func run(writesPerProcess: Int, postgres url: String? = nil) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-bench-shared-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        /// A new, empty store named `label`.
        func target(_ label: String) async throws -> String {
            guard let url else { return directory.appendingPathComponent("\(label).sqlite").path }
            let schema = "relata_bench_\(label)"
            let connection = try await PostgresBaselineW1.connect(url)
            try await PostgresBaselineW1.run(connection, "DROP SCHEMA IF EXISTS \(schema) CASCADE")
            try await connection.close()
            try? FileManager.default.removeItem(atPath: goFile("\(url)#\(schema)"))
            return "\(url)#\(schema)"
        }
        let storage = url == nil ? "one SQLite file" : "one PostgreSQL database"
        print("Several processes on \(storage) (each write appends one message to one chat of a store with 1,000 messages)")
        var single = 0.0
        for processes in [1, 2, 4] {
            let path = try await target("writers_\(processes)")
            let rate = try await writesPerSecond(path: path, processes: processes, each: writesPerProcess)
            if processes == 1 { single = rate }
            print("  \(processes) writing process\(processes == 1 ? " " : "es")  \(String(format: "%6.0f", rate)) commits/s in all  (\(String(format: "%.2f", rate / single))x one process; \(writesPerProcess) writes each)")
        }
        let path = try await target("visibility")
        let latencies = try await visibility(path: path, commits: 200)
        func percentile(_ p: Double) -> String {
            String(format: "%.1f ms", latencies[min(latencies.count - 1, Int(Double(latencies.count) * p))] * 1_000)
        }
        print("  a commit of another process seen by store.read, without refresh (follow interval 10 ms\(url == nil ? "" : ", woken by NOTIFY")): p50 \(percentile(0.5)), p99 \(percentile(0.99)), max \(percentile(1)) (\(latencies.count) commits)")
        let quiet = try await visibility(path: try await target("quiet"), commits: 10, gap: 1_200...2_400)
        print("  the same after a quiet second (the follower has slowed down): median \(String(format: "%.1f ms", quiet[quiet.count / 2] * 1_000)), max \(String(format: "%.1f ms", (quiet.last ?? 0) * 1_000)) (\(quiet.count) commits)")
        let still = try await idleCPU(path: path, seconds: 5, follow: false)
        let idle = try await idleCPU(path: path, seconds: 5, follow: true)
        print("  an idle store that follows \(url == nil ? "the file" : "the database"): \(String(format: "%.2f", idle * 100))% of one core; one that does not: \(String(format: "%.2f", still * 100))% (5 s each, getrusage of this process)")
        print("")
    }

    /// Seeds a store with one chat of 1,000 messages.
    static func seed(_ path: String) async throws {
        let store = try await open(path, follow: false)
        try await store.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<1_000 { try Message(id: "seed-\(i)", text: "seed", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await store.close()
    }

    static func writesPerSecond(path: String, processes: Int, each: Int) async throws -> Double {
        try await seed(path)
        let go = goFile(path)
        let children = try (0..<processes).map { try Child.start(["--probe", "shared-append", "--path", path, "--name", "w\($0)", "--count", "\(each)"]) }
        for child in children { try await child.wait(for: "ready") }
        _ = FileManager.default.createFile(atPath: go, contents: nil)
        var starts: [Double] = [], ends: [Double] = []
        for child in children {
            let lines = try await child.finish()
            guard let line = lines.last(where: { $0.hasPrefix("done") }) else { throw Failure(lines: lines) }
            let fields = line.split(separator: " ").compactMap { Double($0) }
            starts.append(fields[0])
            ends.append(fields[1])
        }
        let store = try await open(path, follow: false)
        let count = store.context.ids(of: "c", \Chat.$messages).count
        try await store.close()
        precondition(count == 1_000 + processes * each, "lost writes: \(count)")
        return Double(processes * each) / (ends.max()! - starts.min()!)
    }

    /// Child: waits for the go file, appends `count` messages one write each; prints the times.
    static func appendChild(path: String, name: String, count: Int) async throws {
        let store = try await open(path)
        say("ready")
        while !FileManager.default.fileExists(atPath: goFile(path)) { try await Task.sleep(for: .milliseconds(1)) }
        let start = Date().timeIntervalSince1970
        for i in 0..<count {
            try await store.write { context in
                try Message(id: "\(name)-\(i)", text: "message \(i)", author: .id("u"), chat: .id("c")).save(to: &context)
            }
        }
        say("done \(start) \(Date().timeIntervalSince1970)")
    }

    /// The latency from another process's commit to this process's `store.read` seeing it.
    static func visibility(path: String, commits: Int, gap: ClosedRange<Int> = 10...30) async throws -> [Double] {
        try await seed(path)
        let store = try await open(path)
        let child = try Child.start(["--probe", "shared-commit", "--path", path, "--count", "\(commits)", "--name", "\(gap.lowerBound)-\(gap.upperBound)"])
        try await child.wait(for: "ready")
        var seen: [Int: Double] = [:]
        let deadline = Date().addingTimeInterval(120)
        // The child commits v-0, v-1, … in order: a read asks for the next ones only (asking for
        // every message not seen yet would make each poll a read of up to `commits` ids, which
        // over PostgreSQL is the poll's own latency, not the store's).
        var next = 0
        while next < commits, Date() < deadline {
            let context = store.context
            while next < commits, context.entity(Message.self, id: "v-\(next)") != nil {
                seen[next] = Date().timeIntervalSince1970
                next += 1
            }
            try await Task.sleep(for: .microseconds(200))
        }
        let lines = try await child.finish()
        try await store.close()
        var latencies: [Double] = []
        for line in lines where line.hasPrefix("committed") {
            let fields = line.split(separator: " ")
            guard let i = Int(fields[1]), let at = Double(fields[2]), let was = seen[i] else { continue }
            latencies.append(max(0, was - at))
        }
        return latencies.sorted()
    }

    /// Child: commits one message every `gap` ms ("low-high", random in between) and prints
    /// when each write returned.
    static func commitChild(path: String, count: Int, gap: String) async throws {
        let bounds = gap.split(separator: "-").compactMap { Int($0) }
        let range = bounds.count == 2 ? bounds[0]...bounds[1] : 10...30
        let store = try await open(path, follow: false)
        say("ready")
        try await Task.sleep(for: .milliseconds(100))
        for i in 0..<count {
            try await store.write { context in
                try Message(id: "v-\(i)", text: "visible", author: .id("u"), chat: .id("c")).save(to: &context)
            }
            say("committed \(i) \(Date().timeIntervalSince1970)")
            try await Task.sleep(for: .milliseconds(Int.random(in: range)))
        }
        say("done")
    }

    /// The share of one core this process uses while a following store sits idle.
    static func idleCPU(path: String, seconds: Double, follow: Bool) async throws -> Double {
        let store = try await open(path, follow: follow)
        try await Task.sleep(for: .milliseconds(200))
        let before = cpuSeconds(), start = Date()
        try await Task.sleep(for: .seconds(seconds))
        let used = cpuSeconds() - before, wall = Date().timeIntervalSince(start)
        try await store.close()
        return used / wall
    }

    static func cpuSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    struct Failure: Error, CustomStringConvertible {
        let lines: [String]
        var description: String { "a child process failed: \(lines.suffix(3))" }
    }
}

/// relata-bench run again as a child process, and what it prints.
final class Child: @unchecked Sendable {
    let process = Process()
    private let lock = NSLock()
    private var data = Data()
    private var ended = false

    static func start(_ arguments: [String]) throws -> Child {
        let child = Child()
        child.process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        child.process.arguments = arguments
        let pipe = Pipe()
        child.process.standardOutput = pipe
        try child.process.run()
        let handle = pipe.fileHandleForReading
        Thread.detachNewThread {
            while true {
                let chunk = handle.availableData
                child.lock.withLock {
                    if chunk.isEmpty { child.ended = true } else { child.data.append(chunk) }
                }
                if chunk.isEmpty { return }
            }
        }
        return child
    }

    var lines: [String] {
        lock.withLock { String(decoding: data, as: UTF8.self) }.split(separator: "\n").map(String.init)
    }

    func wait(for prefix: String) async throws {
        while !lines.contains(where: { $0.hasPrefix(prefix) }), process.isRunning { try await Task.sleep(for: .milliseconds(2)) }
    }

    func finish() async throws -> [String] {
        while process.isRunning { try await Task.sleep(for: .milliseconds(5)) }
        while !lock.withLock({ ended }) { try await Task.sleep(for: .milliseconds(2)) }
        return lines
    }
}
