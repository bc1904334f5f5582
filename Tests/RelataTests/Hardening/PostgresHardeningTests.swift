import ChatExample
import Foundation
import Relata
@testable import RelataPostgres
import Testing

/// PostgreSQL connections as safe as the user asked (sslmode honoured, credentials decoded once,
/// unknown parameters refused), bounded waits on reads, errors without secrets, and SQL that a
/// role on the `search_path` cannot hijack.
@Suite("Hardening: PostgreSQL", .serialized, .timeLimit(.minutes(3)))
struct PostgresHardeningTests {
    typealias Message = ChatExample.Message

    static func open(_ url: String, configuration: PostgresBackend.Configuration = .init(schema: PostgresStoreTests.schema())) async throws -> Store {
        try await Store(postgres: url, configuration: configuration, entities: ChatExample.User.self, ChatExample.Chat.self, Message.self, ChatExample.Attachment.self)
    }

    /// The code of what `body` throws (`nil` when it throws nothing).
    static func code(_ body: () async throws -> Void) async -> (RelataError.Code?, String) {
        do {
            try await body()
            return (nil, "")
        } catch let error as RelataError {
            return (error.code, error.description)
        } catch {
            return (RelataError.Code("not a RelataError: \(type(of: error))"), "\(error)")
        }
    }

    @Test("URLs: unknown parameters, bad percent-encoding and sslmode values are refused with a typed error; credentials decode once")
    func urlParsing() throws {
        for url in [
            "postgres://u@h/db?sslmode=bogus", "postgres://u@h/db?foo=1", "postgres://u@h/db?sslmode=allow",
            "postgres://%zz@h/db", "postgres://u:%zz@h/db", "postgres://u@h/db?sslrootcert=/x",
            "postgres://u@127.0.0.1/db?sslmode=verify-full", "postgres://u@h/db?sslmode=require&sslmode=disable",
        ] {
            #expect(throws: RelataError.self, "\(url)") { try PostgresURL.parse(url, tls: .disable) }
            do { _ = try PostgresURL.parse(url, tls: .disable) } catch { #expect((error as? RelataError)?.code == .invalidConfiguration, "\(url)") }
        }
        let (settings, place) = try PostgresURL.parse("postgres://a%2540b:p%25zz%40@h:6000/db?sslmode=disable", tls: .disable)
        #expect(settings.username == "a%40b", "the user decoded once")
        #expect(settings.password == "p%zz@", "the password decoded once")
        #expect(place == "PostgreSQL h:6000/db")
        let required = try PostgresURL.parse("postgres://u@h/db?sslmode=require", tls: .disable).0
        #expect(required.tls.isEnforced)
        let preferred = try PostgresURL.parse("postgres://u@h/db?sslmode=prefer", tls: .disable).0
        #expect(preferred.tls.isAllowed && !preferred.tls.isEnforced)
    }

    @Test("sslmode on a real server: require and verify-full (with sslrootcert) connect over TLS; require against a server without TLS fails typed")
    func sslModes() async throws {
        guard let plain = PostgresStoreTests.serverURL(),
            let tls = PostgresStoreTests.setting("RELATA_POSTGRES_TLS_URL", ciMust: "start a PostgreSQL server with ssl=on", skipped: "TLS tests skipped"),
            let ca = PostgresStoreTests.setting("RELATA_POSTGRES_TLS_CA", ciMust: "give the TLS server's CA", skipped: "TLS tests skipped")
        else { return }
        // The TLS server accepts TLS only (hostssl): a store that opens and writes used TLS.
        for query in ["sslmode=require", "sslmode=verify-ca&sslrootcert=\(ca)", "sslmode=verify-full&sslrootcert=\(ca)", "sslmode=prefer"] {
            let store = try await Self.open("\(tls)?\(query)")
            try await store.write { try ChatExample.Chat(id: "c").save(to: &$0) }
            #expect(store.context.ids(of: ChatExample.Chat.self) == ["c"], "\(query)")
            try await store.close()
        }
        // Plain text is refused by that server: nothing silently falls back.
        let (plainCode, _) = await Self.code { _ = try await Self.open("\(tls)?sslmode=disable") }
        #expect(plainCode == .storageFailed)
        // verify-full against a CA that did not sign the certificate fails.
        let otherCA = FileManager.default.temporaryDirectory.appendingPathComponent("relata-other-ca-\(UUID().uuidString).pem")
        defer { try? FileManager.default.removeItem(at: otherCA) }
        #expect(try ShellCommand.run("openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=other -keyout /dev/null -out \(otherCA.path) 2>/dev/null") == 0)
        let (wrongCA, _) = await Self.code { _ = try await Self.open("\(tls)?sslmode=verify-full&sslrootcert=\(otherCA.path)") }
        #expect(wrongCA == .storageFailed)
        // require against the server without TLS.
        let (noTLS, _) = await Self.code { _ = try await Self.open("\(plain)?sslmode=require") }
        #expect(noTLS == .storageFailed)
    }

    @Test("A read blocked by another client's ACCESS EXCLUSIVE lock fails typed past the busy timeout, on open and refresh")
    func readsAreBounded() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let schema = PostgresStoreTests.schema()
        let configuration = PostgresBackend.Configuration(schema: schema, busyTimeout: .seconds(1))
        let store = try await Self.open(url, configuration: configuration)
        try await store.write { try ChatExample.Chat(id: "c").save(to: &$0) }
        let holder = try PSQLClient.start(url, "BEGIN; LOCK TABLE \"\(schema)\".relata_log IN ACCESS EXCLUSIVE MODE; SELECT pg_sleep(6); COMMIT;")
        defer { if holder.isRunning { holder.terminate() } }
        // Wait until the lock is held.
        try await waitUntil(seconds: 10) {
            PSQLClient.value(url, "SELECT count(*) FROM pg_locks WHERE mode = 'AccessExclusiveLock' AND relation = '\"\(schema)\".relata_log'::regclass") == "1"
        }
        let started = ContinuousClock.now
        let (refreshCode, _) = await Self.code { try await store.refresh() }
        #expect(refreshCode == .storeBusy)
        let (openCode, _) = await Self.code { _ = try await Self.open(url, configuration: configuration) }
        #expect(openCode == .storeBusy)
        #expect(ContinuousClock.now - started < .seconds(5), "each gave up after about the busy timeout")
        holder.waitUntilExit()
        try await store.refresh()
        try await store.close()
    }

    @Test("Errors name host, port and database, never the role or password the server quotes")
    func errorsNameNoSecret() async throws {
        guard let url = PostgresStoreTests.serverURL(), let components = URLComponents(string: url), let host = components.host,
            let port = components.port
        else { return }
        _ = try? ShellCommand.run(
            "psql '\(url)' -qc \"DO \\$\\$ BEGIN CREATE ROLE relata_secret LOGIN PASSWORD 'right-password'; EXCEPTION WHEN duplicate_object THEN NULL; END \\$\\$\""
        )
        for (user, password) in [("relata_secret", "wrong-password"), ("nobody_at_all_x", "whatever-pw")] {
            let (code, text) = await Self.code { _ = try await Self.open("postgres://\(user):\(password)@\(host):\(port)/postgres") }
            #expect(code == .storageFailed, "\(text)")
            #expect(!text.contains(user) && !text.contains(password), "\(text)")
            #expect(text.contains("\(host):\(port)/postgres"), "\(text)")
        }
    }

    @Test("Functions are called from pg_catalog: a same-named function on the search_path is never run; schemas A and a get their own channel")
    func schemaQualifiedSQL() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        // A role able to create objects in public plants functions that would win overload
        // resolution against pg_catalog's (text[] is more specific than anyarray).
        let trap = PostgresStoreTests.schema()
        #expect(try ShellCommand.run("""
            psql '\(url)' -qc "CREATE TABLE public.\(trap) (hit text); \
            CREATE FUNCTION public.unnest(text[]) RETURNS SETOF text LANGUAGE sql AS 'INSERT INTO public.\(trap) VALUES (''unnest'') RETURNING hit'; \
            CREATE FUNCTION public.pg_notify(text, text) RETURNS void LANGUAGE sql AS 'INSERT INTO public.\(trap) VALUES (''notify'')'; \
            CREATE FUNCTION public.set_config(text, integer, boolean) RETURNS text LANGUAGE sql AS 'INSERT INTO public.\(trap) VALUES (''set_config'') RETURNING hit';"
            """) == 0)
        defer { _ = try? ShellCommand.run("psql '\(url)' -qc 'DROP FUNCTION public.unnest(text[]); DROP FUNCTION public.pg_notify(text, text); DROP FUNCTION public.set_config(text, integer, boolean); DROP TABLE public.\(trap)'") }
        let store = try await Self.open(url)
        try await store.write { context in
            try ChatExample.Chat(id: "c").save(to: &context)
            try Message(id: "m", text: "t", author: .id("u"), chat: .id("c")).save(to: &context)
        }
        try await store.write { try Message.delete(id: "m", from: &$0) }
        #expect(store.context.ids(of: ChatExample.Chat.self) == ["c"])
        try await store.close()
        #expect(PSQLClient.value(url, "SELECT count(*) FROM public.\(trap)") == "0")

        let upper = try PostgresSchema(schema: "Relata_A"), lower = try PostgresSchema(schema: "relata_a")
        #expect(upper.channel != lower.channel)
    }
}
