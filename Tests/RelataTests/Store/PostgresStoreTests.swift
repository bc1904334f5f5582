import Foundation
import Relata
@_spi(Paged) import RelataCore
@testable import RelataPostgres
import RelataStoreConformance
import Synchronization
import Testing

/// The PostgreSQL backend on a real server: the one `.ci/run` starts (`RELATA_POSTGRES_URL`).
/// Without the variable these tests say so and pass, except under `CI=true`, where a missing
/// server fails the run.
@Suite("PostgreSQL store", .serialized, .timeLimit(.minutes(5)))
struct PostgresStoreTests {
    /// The server's URL, or `nil` (recorded as a failure under CI) when none is configured.
    static func serverURL() -> String? {
        setting(
            "RELATA_POSTGRES_URL", ciMust: "start a PostgreSQL server",
            skipped: "PostgreSQL tests skipped: set RELATA_POSTGRES_URL (e.g. postgres://relata@127.0.0.1:5432/postgres) to run them"
        )
    }

    /// The environment variable `name`; when unset, a failure under CI (which must provide it,
    /// as `ciMust` says), else the `skipped` message.
    static func setting(_ name: String, ciMust: String, skipped: String) -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment[name], !value.isEmpty { return value }
        if environment["CI"] == "true" {
            Issue.record("\(name) is not set: CI must \(ciMust) (see .ci/run)")
        } else {
            print(skipped)
        }
        return nil
    }

    static func schema() -> String { "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(16).lowercased() }

    @Test("The PostgreSQL backend passes every check of RelataStoreConformance")
    func conformance() async throws {
        guard let url = Self.serverURL() else { return }
        let results = await StoreConformance.run(timeLimit: .seconds(120)) {
            let schema = Self.schema()
            return { try PostgresBackend.open(url: url, configuration: .init(schema: schema)) }
        }
        #expect(results.count == StoreConformance.checkNames.count)
        for result in results { #expect(result.passed, "\(result)") }
    }

    @Test("Two stores on one database: one that found no dynamic relationship stored still cascades one the other made since")
    func storedDynamicLinks() async throws {
        guard let url = Self.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: Self.schema())
        let backend = try await PostgresBackend.connect(url: url, configuration: configuration)
        let a = try await Store(backend: backend, schema: StoredDynamicLinksTests.schema)
        let b = try await Store(backend: await PostgresBackend.connect(url: url, configuration: configuration), schema: StoredDynamicLinksTests.schema)
        #expect(try backend.read { try $0.holdsDynamicLinks() } == false)
        try await StoredDynamicLinksTests.cascadeAfterAnotherStoreRelated(a, b)
        #expect(try backend.read { try $0.holdsDynamicLinks() } == false, "the one relationship went with its owner")
        try await b.write { try Drawer(id: "b").relate(.free, Sheet(id: 2), in: &$0) }
        #expect(try backend.read { try $0.holdsDynamicLinks() } == true)
        try await a.close()
        try await b.close()
    }

    @Test("Two stores on one database: a write catches up first, a cascade reaches the other's messages, and each follows the other")
    func twoStores() async throws {
        guard let url = Self.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: Self.schema())
        let a = try await Store(postgres: url, configuration: configuration, entities: User.self, Chat.self, Message.self, Attachment.self)
        let b = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration),
                                schema: EntitySchema(User.self, Chat.self, Message.self, Attachment.self), followInterval: nil)
        try await a.write { try Chat(id: "c").save(to: &$0) }
        try await b.write { context in
            for i in 0..<10 { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await waitUntil(seconds: 10) { a.context.ids(of: "c", \Chat.$messages).count >= 10 }
        #expect(a.context.ids(of: "c", \Chat.$messages) == (0..<10).map { "m\($0)" }, "a followed b's commit")
        try await a.write { try Chat.delete(id: "c", from: &$0) }
        try await b.refresh()
        #expect(b.context.ids(of: Message.self).isEmpty, "the cascade reached b's messages")
        try b.context.checkInvariants()
        try await a.close()
        try await b.close()
    }

    @Test("Two stores over storage on one database: each reads what the other committed, a cascade reaches the other's messages, a held context refuses what changed")
    func twoStoresOverStorage() async throws {
        guard let url = Self.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: Self.schema())
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        let a = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema)
        let b = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema, followInterval: nil)
        try await a.write { try Chat(id: "c").save(to: &$0) }
        try await b.write { context in
            for i in 0..<10 { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        let held = b.context
        #expect(held.ids(of: "c", \Chat.$messages).count == 10)
        try await waitUntil(seconds: 10) { a.context.ids(of: "c", \Chat.$messages).count >= 10 }
        #expect(a.context.ids(of: "c", \Chat.$messages) == (0..<10).map { "m\($0)" }, "a followed b's commit")
        try await a.write { try Chat.delete(id: "c", from: &$0) }
        try await b.refresh()
        #expect(b.context.ids(of: Message.self).isEmpty, "the cascade reached b's messages")
        #expect(held.ids(of: "c", \Chat.$messages).count == 10, "what a held context read stays")
        #expect(held.entity(Message.self, id: "m3") == nil, "a row it had not read, changed since: refused")
        #expect((held.storageFailure as? RelataError)?.code == .staleSnapshot)
        try b.context.checkInvariants()
        try await a.close()
        try await b.close()
    }

    @Test("A write after another store added a column writes that column: a link the other store set there is removed")
    func columnAddedByAnotherStore() async throws {
        guard let url = Self.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: Self.schema())
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        let a = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema, followInterval: nil)
        let b = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema, followInterval: nil)
        // a knows the message table with its author and chat columns, as of its own commits.
        try await a.write { try Message(id: "m1", text: "first", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await a.write { try Message(id: "m0", text: "zero", author: .id("u"), chat: .id("c")).save(to: &$0) }
        // b adds the replyTo column.
        try await b.write { try Message(id: "m2", text: "reply", author: .id("u"), chat: .id("c"), replyTo: .id("m1")).save(to: &$0) }
        try await a.write { try Message(id: "m2", text: "reply", author: .id("u"), chat: .id("c"), replyTo: .null).save(to: &$0) }
        let whole = try loadedWhole(try await PostgresBackend.connect(url: url, configuration: configuration), schema: schema)
        #expect(whole.ids(of: "m2", \Message.$replyTo).isEmpty, "a's write cleared the column b made")
        #expect(whole.ids(of: "m1", \Message.$replies).isEmpty)
        try await a.close()
        try await b.close()
    }

    @Test("Observation across instances: another store's commit arrives in commits as remote, and observers see it, without refresh")
    func observationAcrossStores() async throws {
        guard let url = Self.serverURL() else { return }
        let configuration = PostgresBackend.Configuration(schema: Self.schema())
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        let observed = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema)
        let other = try await Store(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: schema, followInterval: nil)
        let commits = observed.commits.makeAsyncIterator()
        let users = observed.observe { context in context.ids(of: User.self).sorted() }.makeAsyncIterator()
        #expect(try await users.next() == [])
        try await other.write { try User(id: "u", name: "Ann").save(to: &$0) }
        let commit = try #require(await commits.next())
        #expect(commit.kind == .remote)
        #expect(commit.delta.storedIDs(of: User.self) == ["u"])
        #expect(commit.sequence == other.sequence)
        #expect(try await users.next() == ["u"])
        try await observed.close()
        try await other.close()
    }

    @Test("Errors name the server, never the credentials")
    func credentialsNeverShown() async throws {
        let url = "postgres://someone:s3cret-pass@127.0.0.1:1/nowhere"
        do {
            _ = try await Store(postgres: url, entities: User.self)
            Issue.record("connected to a closed port")
        } catch {
            let text = "\(error) \(error.localizedDescription)"
            #expect(!text.contains("s3cret-pass") && !text.contains("someone"), "\(text)")
            #expect(text.contains("127.0.0.1:1"), "\(text)")
        }
    }
}

extension PostgresStoreTests {
/// Real processes (`RelataWorker`) on one PostgreSQL database, and dropped connections. Nested in
/// `PostgresStoreTests`, whose `.serialized` covers it: a test here ends every other connection
/// to the database.
@Suite("PostgreSQL store: several processes and faults")
struct Processes {
    typealias Processes = MultiProcessStoreTests
    typealias Chat = MultiProcessStoreTests.Chat
    typealias Message = MultiProcessStoreTests.Message

    /// Runs `work` on a dispatch thread (it waits for the driver).
    static func offPool(_ work: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
        }
    }

    static func open(_ url: String, _ schema: String, follow: Bool = true) async throws -> Store {
        try await Store(
            backend: PostgresBackend.connect(url: url, configuration: .init(schema: schema)),
            schema: EntitySchema(MultiProcessStoreTests.User.self, Chat.self, Message.self, MultiProcessStoreTests.Attachment.self),
            followInterval: follow ? .milliseconds(10) : nil
        )
    }

    @Test("4 processes × 200 appends to one chat at once: 800 messages, no error")
    func concurrentAppends() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let setup = try await Self.open(url, schema, follow: false)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let workers = try (0..<4).map { try Processes.start("append", "\(url)#\(schema)", "w\($0)", "200") }
        for worker in workers {
            let lines = try await worker.finish()
            #expect(lines.last == "done 200", "worker output: \(lines.suffix(3))")
        }
        let store = try await Self.open(url, schema, follow: false)
        #expect(store.context.ids(of: "c", \Chat.$messages).count == 800)
        try store.context.checkInvariants()
        try await store.close()
    }

    @Test("Appenders racing a process that deletes and re-creates the chat: no message refers to a missing chat")
    func appendersRaceCascade() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let setup = try await Self.open(url, schema, follow: false)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let target = "\(url)#\(schema)"
        let workers = try [Processes.start("append", target, "a", "150"), Processes.start("append", target, "b", "150"), Processes.start("churn", target, "30")]
        for worker in workers {
            let lines = try await worker.finish()
            #expect(lines.last?.hasPrefix("done") == true, "worker output: \(lines.suffix(3))")
        }
        let store = try await Self.open(url, schema, follow: false)
        try store.context.checkInvariants()
        Processes.expectNoDanglingChat(store.context)
        try await store.close()
    }

    @Test("The listening connection killed with pg_terminate_backend: the follower still converges")
    func listenerKilled() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let follower = try await Self.open(url, schema)
        let writer = try await Self.open(url, schema, follow: false)
        try await writer.write { try Chat(id: "c").save(to: &$0) }
        // Every listener of this schema's channel is cut off.
        let killer = try PostgresBackend.open(url: url, configuration: .init(schema: schema))
        try await killer.terminateListeners()
        try await Self.offPool { try killer.close() }
        try await writer.write { context in
            for i in 0..<5 { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        try await waitUntil(seconds: 20) { follower.context.ids(of: "c", \Chat.$messages).count >= 5 }
        #expect(follower.context.ids(of: "c", \Chat.$messages).count == 5)
        try await follower.close()
        try await writer.close()
    }

    @Test("Every connection dropped, as a server restart does: stores reconnect without restarting the process, nothing is half-committed")
    func connectionsDropped() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let follower = try await Self.open(url, schema)
        let writer = try await Self.open(url, schema, follow: false)
        try await writer.write { context in
            try Chat(id: "c").save(to: &context)
            for i in 0..<5 { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        let killer = try PostgresBackend.open(url: url, configuration: .init(schema: schema))
        try await killer.terminateOtherConnections()
        try await Self.offPool { try killer.close() }
        // The writer's connection is gone: the write connects again and commits whole.
        try await writer.write { context in
            for i in 5..<10 { try Message(id: "m\(i)", text: "hi", author: .id("u"), chat: .id("c")).save(to: &context) }
        }
        #expect(writer.context.ids(of: "c", \Chat.$messages).count == 10)
        try await waitUntil(seconds: 20) { follower.context.ids(of: "c", \Chat.$messages).count >= 10 }
        #expect(follower.context.ids(of: "c", \Chat.$messages).count == 10, "the follower reconnected and caught up")
        try await follower.write { try Message(id: "last", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await writer.refresh()
        #expect(writer.context.ids(of: "c", \Chat.$messages).count == 11)
        try writer.context.checkInvariants()
        try await follower.close()
        try await writer.close()
    }

    /// The shell command that restarts the test server (`RELATA_POSTGRES_RESTART`, set by
    /// `.ci/run`), or `nil` (a failure under CI) when none is configured.
    static func restartCommand() -> String? {
        PostgresStoreTests.setting(
            "RELATA_POSTGRES_RESTART", ciMust: "say how to restart its PostgreSQL server",
            skipped: "PostgreSQL restart test skipped: set RELATA_POSTGRES_RESTART to a command restarting the server (e.g. pg_ctl -D <data> -w -m fast restart)"
        )
    }

    @Test("The server restarted mid-run (pg_ctl restart): every write commits whole or fails with a typed error, and stores go on without restarting the process")
    func serverRestarted() async throws {
        guard let url = PostgresStoreTests.serverURL(), let restart = Self.restartCommand() else { return }
        let schema = PostgresStoreTests.schema()
        let setup = try await Self.open(url, schema, follow: false)
        try await setup.write { try Chat(id: "c").save(to: &$0) }
        try await setup.close()
        let follower = try await Self.open(url, schema)
        let target = "\(url)#\(schema)"
        let names = ["a", "b"]
        let workers = try names.map { try Processes.start("pairs", target, $0, "300") }
        for worker in workers { try await worker.wait(for: "saved 20") }
        try await Self.offPool {
            let status = try ShellCommand.run(restart)
            #expect(status == 0, "the restart command failed")
        }
        var saved: [String] = [], failed = 0
        for (name, worker) in zip(names, workers) {
            let lines = try await worker.finish()
            #expect(lines.last?.hasPrefix("done") == true, "worker output: \(lines.suffix(3))")
            #expect(lines.contains("saved 299"), "the worker's store wrote again after the restart: \(lines.suffix(3))")
            saved += lines.filter { $0.hasPrefix("saved ") }.map { "\(name)-\($0.dropFirst(6))" }
            failed += lines.filter { $0.hasPrefix("failed ") }.count
        }
        print("server restart: \(saved.count) writes committed, \(failed) failed with a typed error")
        let store = try await Self.open(url, schema, follow: false)
        let ids = Set(store.context.ids(of: Message.self))
        let lost = saved.filter { !ids.contains("\($0)-a") || !ids.contains("\($0)-b") }
        #expect(lost.isEmpty, "committed writes missing: \(lost.prefix(5))")
        let halves = ids.filter { id in
            let pair = id.dropLast(2)
            return !ids.contains("\(pair)-a") || !ids.contains("\(pair)-b")
        }
        #expect(halves.isEmpty, "half-committed writes: \(halves.prefix(5))")
        try store.context.checkInvariants()
        // This process's follower reconnected and caught up, and can write.
        try await waitUntil(seconds: 20) { Set(follower.context.ids(of: Message.self)) == ids }
        #expect(Set(follower.context.ids(of: Message.self)) == ids, "the follower caught up after the restart")
        try await follower.write { try Message(id: "after", text: "hi", author: .id("u"), chat: .id("c")).save(to: &$0) }
        try await store.refresh()
        #expect(store.context.entity(Message.self, id: "after") != nil)
        try await follower.close()
        try await store.close()
    }
}
}

extension PostgresStoreTests {
    @Test("Every connection pins search_path to pg_catalog, pg_temp, whatever the role's default")
    func searchPathPinned() async throws {
        guard let url = Self.serverURL() else { return }
        let schema = Self.schema()
        let store = try await Processes.open(url, schema)
        try await store.write { try MultiProcessStoreTests.Chat(id: "c").save(to: &$0) }
        let backend = try PostgresBackend.open(url: url, configuration: .init(schema: schema))
        let paths = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[String], any Error>) in
            DispatchQueue.global().async { continuation.resume(with: Result { try backend.searchPaths() }) }
        }
        #expect(paths == ["pg_catalog, pg_temp", "pg_catalog, pg_temp"])
        #expect(store.context.entity(MultiProcessStoreTests.Chat.self, id: "c") != nil)
        try backend.close()
        try await store.close()
    }
}

extension PostgresStoreTests {
    @Test("64 threads on the synchronous store.read with maxReaders 2: at most 2 reader connections, and a closed store refuses an escaped context with storeClosed")
    func readerPoolBounded() async throws {
        guard let url = Self.serverURL() else { return }
        let backend = try PostgresBackend.open(url: url, configuration: .init(schema: Self.schema(), maxReaders: 2))
        let store = try await Store(
            backend: backend, schema: EntitySchema(MultiProcessStoreTests.User.self, MultiProcessStoreTests.Chat.self,
                                                   MultiProcessStoreTests.Message.self, MultiProcessStoreTests.Attachment.self))
        try await store.write { try MultiProcessStoreTests.Chat(id: "c").save(to: &$0) }
        let escaped = store.context
        let most = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Int, any Error>) in
            DispatchQueue.global().async {
                let most = Mutex(0)
                DispatchQueue.concurrentPerform(iterations: 64) { _ in
                    for _ in 0..<5 {
                        _ = try? store.read { $0.entity(MultiProcessStoreTests.Chat.self, id: "c") }
                        let open = backend.readerConnectionCount
                        most.withLock { $0 = max($0, open) }
                    }
                }
                continuation.resume(returning: most.withLock { $0 })
            }
        }
        #expect(most >= 1 && most <= 2, "reader connections open at once: \(most)")
        try await store.close()
        #expect(backend.readerConnectionCount == 0, "connections left open after close")
        #expect(escaped.entity(MultiProcessStoreTests.Chat.self, id: "c") == nil)
        #expect((escaped.storageFailure as? RelataError)?.code == .storeClosed, "\(String(describing: escaped.storageFailure))")
        #expect(backend.readerConnectionCount == 0, "an escaped context's read opened a connection")
    }
}
