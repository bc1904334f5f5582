import Foundation
import Relata

/// The code a point write and a cold nested resolve pass through, for counting the source files
/// each enters (`Benchmarks/shape.sh` runs these probes under callgrind, collecting only inside
/// the `measured…` functions): `--probe shape-write --path <W2 store>` makes one write to warm
/// the store and then the measured one, as a program's later writes are; `--probe shape-resolve`
/// resolves the first chat nested (W1's query) in the first read after the store opens.
enum ShapeProbe {
    static func run(_ probe: String, path: String, scale: Double) async throws {
        let (_, store) = try await LargeStoreW2.openStore(path)
        let chat = Int(1_000 * scale) / 2
        let author = W1Data.members(chat: chat, userCount: Int(1_000 * scale))[0]
        switch probe {
        case "shape-write":
            try await pointWrite(store, id: "shape-warm", author: author, chat: chat)
            try await measuredPointWrite(store, author: author, chat: chat)
        case "shape-resolve":
            print("resolved", try await measuredColdResolve(store))
        default:
            throw SharedStoreBench.Failure(lines: ["unknown probe \(probe)"])
        }
        try await store.close()
    }

    static func pointWrite(_ store: Store, id: String, author: String, chat: Int) async throws {
        try await store.write { context in
            try Message(id: id, text: "point", author: .id(author), chat: .id("c\(chat)")).save(to: &context)
        }
    }

    @inline(never)
    static func measuredPointWrite(_ store: Store, author: String, chat: Int) async throws {
        try await pointWrite(store, id: "shape-measured", author: author, chat: chat)
    }

    @inline(never)
    static func measuredColdResolve(_ store: Store) async throws -> Int {
        try await store.read { RelataW1.resolve($0, chats: 0..<1) }
    }
}
