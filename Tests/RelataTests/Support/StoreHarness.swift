import Foundation
import Relata
import RelataStoreConformance
@_spi(Paged) @testable import RelataCore

/// The backends every Store conformance test runs against: a SQLite file, and the in-memory
/// backend (whose fetches scan its rows: slower per read, but storage all the same).
enum BackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite

    var description: String { rawValue }

    /// Whether the storage is a SQLite file (otherwise an in-memory backend).
    var isSQLite: Bool { self == .sqlite }

    /// Opens a store on `backend`.
    func open(_ backend: any StorageBackend, schema: EntitySchema, followInterval: Duration? = .milliseconds(10)) async throws -> Store {
        try await Store(backend: backend, schema: schema, followInterval: followInterval)
    }
}

/// Every row `backend` holds, loaded into one plain context (what a context over storage must
/// answer like: the reference of the overlay tests).
func loadedWhole(_ backend: any StorageBackend, schema: EntitySchema) throws -> Context {
    try backend.read { try StoreWriter.load(schema, from: $0).0.context }
}

/// Opens and reopens a store on one backend's storage (a file for SQLite, one in-memory
/// backend instance for memory).
struct StoreHarness: Sendable {
    let kind: BackendKind
    let directory: URL
    let memory = InMemoryBackend()

    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self, Note.self)

    init(_ kind: BackendKind) throws {
        self.kind = kind
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    var path: String { directory.appendingPathComponent("store.sqlite").path }

    func backend() throws -> any StorageBackend {
        kind.isSQLite ? try SQLiteBackend(path: path) : memory
    }

    func open(schema: EntitySchema = StoreHarness.schema) async throws -> Store {
        try await kind.open(backend(), schema: schema)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Wraps a backend and keeps what each write persisted.
final class RecordingBackend: StorageBackend, @unchecked Sendable {
    let wrapped: any StorageBackend
    private let lock = NSLock()
    private var _writes: [StoreChanges] = []
    var failNext = false

    init(_ wrapped: any StorageBackend) { self.wrapped = wrapped }

    var writes: [StoreChanges] { lock.withLock { _writes } }

    func read<T>(_ body: (any StorageReader) throws -> T) throws -> T {
        try wrapped.read(body)
    }

    func write<T>(_ body: (any StorageTransaction) throws -> T) throws -> T {
        try wrapped.write { transaction in
            try body(
                InterceptedTransaction(transaction) { changes, origin in
                    if self.lock.withLock({ defer { self.failNext = false }; return self.failNext }) {
                        throw RelataError(code: .storageFailed, entityType: "Store", message: "injected failure")
                    }
                    let sequence = try transaction.persist(changes, origin: origin)
                    self.lock.withLock { self._writes.append(changes) }
                    return sequence
                })
        }
    }

    func hasNewCommits() throws -> Bool { try wrapped.hasNewCommits() }

    func close() throws { try wrapped.close() }
}
