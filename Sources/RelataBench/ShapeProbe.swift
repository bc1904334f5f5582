import Foundation
import Relata

/// The code a point write and a cold nested resolve pass through, for counting the source files
/// each enters (`Benchmarks/shape/shape.sh` runs these probes under gdb and records every call
/// into a function of this package made inside the `measured…` functions, on their thread).
/// `--probe shape-write --path <new file>` makes a small W1 store (a chat of 10 members and 12
/// messages, with attachments and replies), reopens it, makes one write to warm the store and
/// then the measured one, as a program's later writes are; `--probe shape-resolve` resolves the
/// chat with W1's nested query in the first read after the store opens. Both use the synchronous
/// `store.write` and `store.read`, which run on the caller's thread, and a store that does not
/// follow others (no timer thread).
enum ShapeProbe {
    static func run(_ probe: String, path: String) async throws {
        removeDatabase(path)
        let seed = try await open(path)
        try await seed.write { context in
            let members = (0..<10).map { "u\($0)" }
            for id in members { try User(id: id, name: "User \(id)").save(to: &context) }
            try Chat(id: "c0", users: .ids(members), admins: .ids(["u0"])).save(to: &context)
            for j in 0..<12 {
                try Message(
                    id: "m\(j)", text: "message \(j)", author: .id(members[j % 10]), chat: .id("c0"),
                    attachment: j % 4 == 0 ? .relation(Attachment(id: "a\(j)", kind: .file(url: URL(fileURLWithPath: "/files/\(j)")))) : .none,
                    replyTo: j % 3 == 1 ? .id("m\(j - 1)") : .none
                ).save(to: &context)
            }
        }
        try await seed.close()
        let store = try await open(path)
        switch probe {
        case "shape-write":
            try pointWrite(store, id: "shape-warm")
            try measuredPointWrite(store)
        case "shape-resolve":
            print("resolved", try measuredColdResolve(store))
        default:
            throw SharedStoreBench.Failure(lines: ["unknown probe \(probe)"])
        }
        try await store.close()
    }

    static func open(_ path: String) async throws -> Store {
        try await Store(backend: try SQLiteBackend(path: path), schema: EntitySchema(PersistW1.entities), followInterval: nil)
    }

    static func pointWrite(_ store: Store, id: String) throws {
        try store.write { context in
            try Message(id: id, text: "point", author: .id("u3"), chat: .id("c0")).save(to: &context)
        }
    }

    @inline(never)
    static func measuredPointWrite(_ store: Store) throws {
        try pointWrite(store, id: "shape-measured")
    }

    @inline(never)
    static func measuredColdResolve(_ store: Store) throws -> Int {
        try store.read { RelataW1.resolve($0, chats: 0..<1) }
    }
}
