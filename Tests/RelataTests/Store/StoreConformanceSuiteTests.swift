import Foundation
import Relata
import RelataStoreConformance
import Testing

/// `RelataStoreConformance`, the suite for backend authors, run on the backends Relata ships.
@Suite("Store conformance suite (RelataStoreConformance)")
struct StoreConformanceSuiteTests {
    @Test("The in-memory backend passes every check")
    func inMemory() async {
        let results = await StoreConformance.run(timeLimit: .seconds(60)) {
            let backend = InMemoryBackend()
            return { backend }
        }
        #expect(results.count == StoreConformance.checkNames.count)
        for result in results { #expect(result.passed, "\(result)") }
    }

    @Test("The SQLite backend passes every check")
    func sqlite() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let results = await StoreConformance.run(timeLimit: .seconds(60)) {
            let path = directory.appendingPathComponent("\(UUID().uuidString).sqlite").path
            return { try SQLiteBackend(path: path) }
        }
        for result in results { #expect(result.passed, "\(result)") }
    }

    @Test("A backend that loses writes fails the suite within the time limit, and does not hang it")
    func lossyBackend() async {
        let start = ContinuousClock.now
        let results = await StoreConformance.run(timeLimit: .seconds(10)) {
            let backend = InMemoryBackend()
            return { ForgetfulBackend(backend) }
        }
        #expect(results.contains { !$0.passed }, "a backend that drops every other write must fail")
        #expect(results.first { $0.name.hasPrefix("Ordered") }?.passed == false, "its second write was lost")
        #expect(ContinuousClock.now - start < .seconds(120))
    }
}

/// Drops every other write it is asked to persist, and says nothing.
final class ForgetfulBackend: StorageBackend, @unchecked Sendable {
    let wrapped: InMemoryBackend
    private let lock = NSLock()
    private var count = 0

    init(_ wrapped: InMemoryBackend) { self.wrapped = wrapped }

    func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try wrapped.read(body)
    }

    func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        let drop = lock.withLock { defer { count += 1 }; return count % 2 == 1 }
        // A dropped write commits nothing and says it did.
        if drop { return try wrapped.read { reader in try body(InterceptedTransaction(reader) { _, _ in 0 }) } }
        return try wrapped.write(body)
    }

    func close() throws {}
}
