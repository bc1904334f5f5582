import Foundation
import Relata
import RelataStoreConformance
@_spi(Paged) @_spi(Replica) @testable import RelataCore

/// The backends every Store conformance test runs against, each with a store that loads
/// everything, and SQLite with a store over storage too (`Store(backend:)`, which keeps no
/// copy). The in-memory backend over storage is left out of the default cases: every fault
/// is a scan there, and the suite shares two cores (`allWithMemoryOverStorage` has it).
enum BackendKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case sqlite
    case sqliteOverStorage = "sqlite, over storage"
    case memoryOverStorage = "memory, over storage"

    static var allCases: [BackendKind] { [.memory, .sqlite, .sqliteOverStorage] }

    var description: String { rawValue }

    /// Whether the storage is a SQLite file (otherwise an in-memory backend).
    var isSQLite: Bool { self == .sqlite || self == .sqliteOverStorage }

    /// Whether stores open over storage, keeping no copy.
    var overStorage: Bool { self == .memoryOverStorage || self == .sqliteOverStorage }

    /// The kinds whose stores keep a replica (tests of the replica itself).
    static let replicas: [BackendKind] = [.memory, .sqlite]

    /// Opens a store on `backend` the way this kind does.
    func open(_ backend: any StorageBackend, schema: EntitySchema, followInterval: Duration? = .milliseconds(10)) async throws -> Store {
        overStorage
            ? try await Store(backend: backend, schema: schema, followInterval: followInterval)
            : try await Store(loadingEverything: backend, schema: schema, followInterval: followInterval)
    }
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

extension Store {
    /// The store's second copy of the state, caught up: after every write it must equal the
    /// published state.
    var spareForTesting: Context {
        get async { await writer.caughtUpSpare() ?? context }
    }
}
