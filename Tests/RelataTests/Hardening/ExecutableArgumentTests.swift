import Foundation
import Relata
import Testing

/// `relata-demo` and `relata-worker` never crash on their arguments: each bad one is refused with
/// a message and a non-zero exit status (never a signal), and nothing is deleted that is not a
/// store's own file.
@Suite("Hardening: executables' arguments", .serialized)
struct ExecutableArgumentTests {
    /// The demo's run record, stored under the demo's name (the same fields).
    @EntityModel
    struct DemoRun: Codable {
        let id: Int
        var date: String
        var summary: String
        static var storedTypeName: String { "RelataDemo.DemoRun" }
    }

    /// Runs the executable `name` with `arguments`.
    static func run(_ name: String, _ arguments: String...) throws -> ChildProcess.Result {
        try ChildProcess.run(TypeSafetyCompileTests.buildDirectory().appendingPathComponent(name), arguments)
    }

    @Test("watch --seconds that is not a finite positive number is refused", arguments: ["nan", "inf", "-1", "0", "1e300"])
    func watchSeconds(seconds: String) throws {
        let path = DemoTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let result = try Self.run("relata-demo", "watch", "--path", path, "--seconds", seconds)
        #expect(!result.signaled && result.status != 0, "\(result.output)")
        #expect(result.output.contains("--seconds"), "\(result.output)")
    }

    @Test("--reset --path <a directory> is refused and deletes nothing; --messages below 0 is refused")
    func resetDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let precious = directory.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: precious)
        let result = try Self.run("relata-demo", "--reset", "--path", directory.path)
        #expect(!result.signaled && result.status != 0)
        #expect(result.output.contains("is a directory"), "\(result.output)")
        #expect(FileManager.default.fileExists(atPath: precious.path), "nothing was deleted")
        let negative = try Self.run("relata-demo", "--path", DemoTests.temporaryPath(), "--messages", "-5")
        #expect(!negative.signaled && negative.status != 0 && negative.output.contains("--messages"), "\(negative.output)")
    }

    @Test("--reset with --postgres empties the database's store and touches no local file")
    func resetPostgres() async throws {
        guard let url = PostgresStoreTests.serverURL() else { return }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-keep-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let local = directory.appendingPathComponent("relata-demo.sqlite")
        try Data("not the database".utf8).write(to: local)
        // The demo keeps its tables in the public schema; the first run fills it.
        _ = try Self.run("relata-demo", "--postgres", url, "--messages", "1000")
        let result = try Self.run("relata-demo", "--postgres", url, "--reset", "--path", local.path, "--messages", "1000")
        #expect(!result.signaled && result.status == 0, "\(result.output)")
        #expect(result.output.contains("Reset: emptied the PostgreSQL store"), "\(result.output)")
        #expect(result.output.contains("1. A new store"), "the run started over: \(result.output)")
        #expect(FileManager.default.fileExists(atPath: local.path), "the local file was left alone")
    }

    @Test("A store whose last run is numbered Int.max: the demo says so instead of overflowing")
    func runNumberOverflow() async throws {
        let path = DemoTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        _ = try Self.run("relata-demo", "--path", path, "--messages", "0")
        let store = try await Store(path: path, entities: DemoRun.self)
        try await store.write { try DemoRun(id: Int.max, date: "then", summary: "crafted").save(to: &$0) }
        try await store.close()
        let result = try Self.run("relata-demo", "--path", path, "--messages", "0")
        #expect(!result.signaled && result.status != 0, "\(result.output)")
        #expect(result.output.contains("no run number is left"), "\(result.output)")
    }

    @Test("relata-worker refuses negative counts with its usage, never a trap", arguments: [["append", "x", "w", "-1"], ["pairs", "x", "w", "-3"], ["churn", "x", "-2"], ["watch", "x", "-1"]])
    func workerCounts(arguments: [String]) throws {
        let path = DemoTests.temporaryPath()
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let result = try ChildProcess.run(
            TypeSafetyCompileTests.buildDirectory().appendingPathComponent("RelataWorker"), arguments.map { $0 == "x" ? path : $0 }
        )
        let output = result.output
        #expect(!result.signaled && result.status == 1, "\(output)")
        #expect(output.contains("usage"), "\(output)")
    }
}
