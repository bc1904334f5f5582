import Foundation
import Relata
import RelataSQLite
import Testing

/// A SQLite store opens its writer's connection at its first write: a process that only reads
/// a store holds one connection fewer (each open parses the file's whole schema), and follows
/// other stores' commits all the same, before and after its first write.
@Suite("SQLite store: the writer's connection")
struct SQLiteWriterConnectionTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)

    /// How many of this process's descriptors are open on the file at `path` itself (SQLite
    /// opens it once per connection; -wal and -shm are other files).
    static func connections(to path: String) -> Int {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { fd in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(fd)")) == target
        }.count
    }

    @Test("A store that only reads opens no writer; its first write opens it; close releases both")
    func writerOpensAtFirstWrite() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Made by a store that then closes: SQLite defers closing a descriptor while another
        // connection of the process holds locks on the file, which would blur the counts.
        let maker = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        try await maker.write { try User(id: "u0", name: "Ann").save(to: &$0) }
        try await maker.close()
        #expect(Self.connections(to: path) == 0)

        let reader = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: .milliseconds(5))
        #expect(try await reader.read { User.query("u0", in: $0).resolve()?.name } == "Ann")
        // The watching connection and one reader.
        #expect(Self.connections(to: path) == 2, "a store that only read holds no writer")
        try await reader.write { try User(id: "u1", name: "Bo").save(to: &$0) }
        #expect(Self.connections(to: path) == 3, "its first write opened the writer")
        try await reader.close()
        #expect(Self.connections(to: path) == 0, "close released every connection it opened")
        await #expect(throws: RelataError.self) { try await reader.write { try User(id: "u2", name: "Cleo").save(to: &$0) } }
    }

    @Test("A store follows other stores' commits before its first write and after it", .timeLimit(.minutes(1)))
    func followsAroundFirstWrite() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let other = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: nil)
        try await other.write { try User(id: "u0", name: "Ann").save(to: &$0) }
        let follower = try await Store(backend: SQLiteBackend(path: path), schema: Self.schema, followInterval: .milliseconds(5))
        let commits = follower.commits.makeAsyncIterator()
        try await other.write { try User(id: "u1", name: "Bo").save(to: &$0) }
        let first = try #require(await commits.next())
        #expect(first.kind == .remote && first.delta.storedIDs(of: User.self) == ["u1"], "followed before its first write")

        try await follower.write { try User(id: "u2", name: "Cleo").save(to: &$0) }
        let own = try #require(await commits.next())
        #expect(own.isLocal && own.delta.storedIDs(of: User.self) == ["u2"])

        try await other.write { try User(id: "u3", name: "Dan").save(to: &$0) }
        let second = try #require(await commits.next())
        #expect(second.kind == .remote && second.delta.storedIDs(of: User.self) == ["u3"], "followed after its first write")
        #expect(try await follower.read { User.query(in: $0).resolve().map(\.id).sorted() } == ["u0", "u1", "u2", "u3"])
        try await follower.close()
        try await other.close()
    }
}
