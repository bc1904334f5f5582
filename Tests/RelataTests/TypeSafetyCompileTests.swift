import Foundation
import Testing

/// The "Type Safety" guarantees of SwiftletModel's README: misuse does not compile. Each test type-checks a
/// snippet against the built `Relata` module and macro plugin and expects a compile error.
@Suite("Type safety (compile failures)", .serialized)
struct TypeSafetyCompileTests {
    static let models = """
        import Relata
        @EntityModel struct User { let id: String; @Relationship(inverse: \\.users) var chats: [Chat]? }
        @EntityModel struct Chat {
            let id: String
            @Relationship(inverse: \\.chats) var users: [User]?
            @Relationship(inverse: \\.chat) var messages: [Message]?
        }
        @EntityModel struct Message {
            let id: String
            @Relationship(.required) var author: User?
            @Relationship(.required, inverse: \\.messages) var chat: Chat?
            @Relationship var reviewer: User? = nil
        }

        """

    @Test("Valid uses compile (control)")
    func control() throws {
        let result = try typecheck(Self.models + """
            func use() throws {
                var context = Context()
                var message = Message(id: "1", author: .id("u"), chat: .relation(Chat(id: "c")))
                message.$reviewer = .null
                message.$author = .relation(User(id: "u"))
                var chat = Chat(id: "c", users: .ids(["u"]))
                chat.$messages = .appending(ids: ["1"])
                try message.save(to: &context)
                try chat.save(to: &context)
            }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test(".null on a required relation does not compile")
    func nullOnRequired() throws {
        let result = try typecheck(Self.models + """
            func use() { var message = Message(id: "1"); message.$author = .null }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("null"), "\(result.output)")
    }

    @Test("A to-one setter on a to-many relation does not compile")
    func toOneOnToMany() throws {
        for setter in [#".id("u")"#, #".relation(User(id: "u"))"#, ".null"] {
            let result = try typecheck(Self.models + """
                func use() { var chat = Chat(id: "c"); chat.$users = \(setter) }
                """)
            #expect(result.status != 0, "\(setter) compiled on a to-many relation")
        }
    }

    @Test("A to-many setter on a to-one relation does not compile")
    func toManyOnToOne() throws {
        for setter in [#".ids(["c"])"#, #".appending(ids: ["c"])"#, #".relation([Chat(id: "c")])"#] {
            let result = try typecheck(Self.models + """
                func use() { var message = Message(id: "1"); message.$chat = \(setter) }
                """)
            #expect(result.status != 0, "\(setter) compiled on a to-one relation")
        }
    }

    @Test("A mutual relation whose inverse is one-way does not compile")
    func mutualAgainstOneWay() throws {
        let result = try typecheck("""
            import Relata
            @EntityModel struct Post { let id: String; @Relationship(inverse: \\.post) var comments: [Comment]? }
            @EntityModel struct Comment { let id: String; @Relationship var post: Post? = nil }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("Relations.OneWay"), "\(result.output)")
    }

    @Test("An inverse that points to another type does not compile")
    func inverseOfWrongType() throws {
        let result = try typecheck("""
            import Relata
            @EntityModel struct Post { let id: String; @Relationship(inverse: \\.owner) var tags: [Tag]? }
            @EntityModel struct Tag { let id: String; @Relationship(inverse: \\.tags) var owner: Owner? }
            @EntityModel struct Owner { let id: String; @Relationship(inverse: \\.owner) var tags: [Tag]? }
            """)
        #expect(result.status != 0)
    }

    // MARK: - Running the compiler

    struct Result {
        let status: Int32
        let output: String
    }

    func typecheck(_ source: String) throws -> Result {
        let build = try Self.buildDirectory()
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("relata-typecheck-\(UUID().uuidString).swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "swiftc", "-typecheck", "-swift-version", "6", file.path,
                "-I", build.appendingPathComponent("Modules").path,
                "-load-plugin-executable", build.appendingPathComponent("RelataMacros-tool").path + "#RelataMacros",
            ] + Self.sqliteModuleMap(near: build).flatMap { ["-Xcc", "-fmodule-map-file=\($0.path)"] }
        )
        return Result(status: result.status, output: result.output)
    }

    /// GRDB's module map of the system SQLite (`Relata` re-exports `RelataSQLite`, which imports it).
    static func sqliteModuleMap(near build: URL) -> [URL] {
        var folder = build
        for _ in 0..<4 {
            let candidate = folder.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")
            if FileManager.default.fileExists(atPath: candidate.path) { return [candidate] }
            folder.deleteLastPathComponent()
        }
        return []
    }

    /// The build folder holding `Modules/Relata.swiftmodule` and the macro plugin: the folder of
    /// the test bundle being run, or `.build/debug` of the package.
    static func buildDirectory() throws -> URL {
        var candidates: [URL] = []
        if let executable = CommandLine.arguments.first {
            var url = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
            for _ in 0..<4 {
                url.deleteLastPathComponent()
                candidates.append(url)
            }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("Modules/Relata.swiftmodule").path)
            && FileManager.default.fileExists(atPath: candidate.appendingPathComponent("RelataMacros-tool").path)
        {
            return candidate
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Relata.swiftmodule near \(candidates)"])
    }
}
