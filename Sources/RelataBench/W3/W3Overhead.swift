import Foundation
import GRDB
import Relata
import RelataPostgres

/// Where a warm Q1 spends its time (`--probe w3-overhead --path <W3 store> --scale S`): the hop
/// to a dispatch queue and back that every `async` read makes (a queue of `.userInitiated`, as
/// the store's reader queues, and one of the default QoS), an empty `store.read` (async and
/// synchronous), building the query, Q1, Q2, Q4 and Q8 (synchronous) through Relata and through GRDB by
/// hand, each the median over W3's 1,000 e-mails, three times
/// (`RELATA_BENCH_QUERY=<name>`: that one alone, thirty times, for profiling). With `--path
/// <postgres URL>#<schema>` (W3's PostgreSQL schema), Relata's rows on PostgreSQL, without GRDB's.
enum W3Overhead {
    static func run(_ data: W3Data, path: String) async throws {
        let parts = path.split(separator: "#", maxSplits: 1).map(String.init)
        let onPostgres = path.hasPrefix("postgres")
        let backend: any StorageBackend = onPostgres
            ? try await PostgresBackend.connect(url: parts[0], configuration: .init(schema: parts[1])) : try SQLiteBackend(path: path)
        let store = try await Store(backend: backend, schema: EntitySchema(W3Bench.entities))
        let emails = data.lookupEmails()
        let only = ProcessInfo.processInfo.environment["RELATA_BENCH_QUERY"]
        func time(_ name: String, _ body: (String) async throws -> Void) async throws {
            if let only, only != name { return }
            var times: [Duration] = []
            for _ in 0..<(only == nil ? 3 : 30) {
                for email in emails {
                    let start = ContinuousClock.now
                    try await body(email)
                    times.append(ContinuousClock.now - start)
                }
            }
            print(name, times.sorted()[times.count / 2])
        }
        let userInitiated = DispatchQueue(label: "hop.userInitiated", qos: .userInitiated)
        let plain = DispatchQueue(label: "hop.default")
        try await time("bare hop userInitiated") { _ in
            _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in userInitiated.async { c.resume(returning: 0) } }
        }
        try await time("bare hop default") { _ in
            _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in plain.async { c.resume(returning: 0) } }
        }
        let hopActor = HopActor(label: "hop.actor")
        try await time("bare hop actor") { _ in _ = await hopActor.run { 0 } }
        try await time("empty await read") { _ in _ = try await store.read { _ in 0 } }
        try await time("sync read") { _ in _ = try store.read { _ in 0 } }
        try await time("query built") { email in _ = try await store.read { _ = W3User.query(in: $0).filter(\.email == email); return 0 } }
        try await time("Q1 await") { email in _ = try await store.read { W3Queries.user(email: email, in: $0) } }
        try await time("Q1 sync") { email in _ = try store.read { W3Queries.user(email: email, in: $0) } }
        try await time("Q2 sync") { _ in _ = try store.read { W3Queries.newest(after: data.after, in: $0) } }
        try await time("Q4 sync") { _ in _ = try store.read { W3Queries.agedPage(in: $0) } }
        let newer = W3Bench.newer(data)
        try await time("Q8 sync") { _ in
            do {
                try store.write { context in
                    for message in newer { try message.save(to: &context) }
                    _ = W3Queries.newest(after: data.after, in: context)
                    throw W3Bench.Rollback()
                }
            } catch is W3Bench.Rollback {}
        }
        guard !onPostgres else { return try await store.close() }
        let reads = try DatabaseQueue(path: path.replacingOccurrences(of: "w3-relata", with: "w3-grdb"))
        try await time("grdb empty await") { _ in _ = try await reads.read { _ in 0 } }
        try await time("grdb Q1 await") { email in _ = try await reads.read { try W3GRDB.user(email: email, $0) } }
        try await time("grdb Q1 sync") { email in _ = try reads.read { try W3GRDB.user(email: email, $0) } }
        try await time("grdb Q2 sync") { _ in _ = try reads.read { try W3GRDB.newest(after: data.after, $0) } }
        try await time("grdb Q4 sync") { _ in _ = try reads.read { try W3GRDB.agedPage($0) } }
        try await store.close()
    }
}

/// An actor whose jobs run on a dispatch queue of its own (as GRDB's `DispatchQueueActor`): a
/// hop to it and back moves the task, with no continuation.
private actor HopActor {
    private let executor: HopExecutor

    init(label: String) {
        executor = HopExecutor(queue: DispatchQueue(label: label, qos: .userInitiated))
    }

    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    func run<T>(_ body: () -> T) -> T {
        dispatchPrecondition(condition: .onQueue(executor.queue))
        return body()
    }
}

private final class HopExecutor: SerialExecutor, @unchecked Sendable {
    let queue: DispatchQueue

    init(queue: DispatchQueue) {
        self.queue = queue
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
