import Foundation
import Relata
import Testing

/// Numbers a user may pass that used to overflow and stop the process.
@Suite("Hardening: numbers that overflow")
struct NumberBoundsTests {
    @EntityModel
    struct Left {
        let id: String
        static var storedTypeName: String { "Shared" }
    }

    @EntityModel
    struct Right {
        let id: String
        static var storedTypeName: String { "Shared" }
    }

    @Test("Two entity types stored under one name: opening a store throws a typed error naming both")
    func duplicateStoredNames() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        do {
            _ = try await Store(path: path, entities: Left.self, Right.self)
            Issue.record("the store opened")
        } catch let error as RelataError {
            #expect(error.code == .invalidConfiguration)
            #expect(error.message.contains("Left") && error.message.contains("Right") && error.message.contains("Shared"))
        }
        await #expect(throws: RelataError.self) { try await Store.inMemory(entities: Left.self, Right.self) }
        #expect(throws: RelataError.self) { try EntitySchema(Left.self, Right.self).validate() }
    }

    @Test("Busy timeouts and follow intervals far beyond what a driver takes open and work")
    func hugeDurations() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let store = try await Store(
            backend: SQLiteBackend(path: path, busyTimeout: .seconds(Int64(100 * 365 * 86_400))),
            schema: EntitySchema(Left.self), followInterval: .seconds(Int64.max / 2)
        )
        try await store.write { try Left(id: "1").save(to: &$0) }
        #expect(store.context.ids(of: Left.self) == ["1"])
        try await store.close()
        let memory = try await Store(backend: InMemoryBackend(busyTimeout: .seconds(Int64.max / 2)), schema: EntitySchema(Left.self))
        try await memory.write { try Left(id: "2").save(to: &$0) }
        #expect(memory.context.ids(of: Left.self) == ["2"])
    }
}
