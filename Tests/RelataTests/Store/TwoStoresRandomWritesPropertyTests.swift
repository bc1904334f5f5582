import PropertyBased
import Relata
@testable import RelataCore
import Testing

/// Two stores on one storage write at random in turn; before each write the other store reads
/// everything (so its row cache holds what is about to change), and after it catches up. Then
/// both must read what a whole load of the storage holds: the keys each commit's log record names
/// are all the other store must evict, and nothing else it kept may be stale.
@Suite("Store: two stores writing one storage in turn (property-based)")
struct TwoStoresRandomWritesPropertyTests {
    typealias Copies = StoreRandomWritesPropertyTests

    @Test("After each write, and the other store's catch-up, both stores read what storage holds", arguments: BackendKind.allCases)
    func storesAgree(kind: BackendKind) async {
        await propertyCheck(count: kind == .memory ? 30 : 10, input: Gen.int(in: 0...100_000).array(of: 1...60)) { codes in
            await Self.check(codes, on: kind)
        }
    }

    static func check(_ codes: [Int], on kind: BackendKind) async {
        guard let harness = try? StoreHarness(kind) else { return }
        defer { harness.remove() }
        await check(codes, open: { try await Store(backend: harness.backend(), schema: $0, followInterval: nil) }, storage: { try harness.backend() })
    }

    /// Applies `codes` in batches through two stores `open` opens (each with its own backend on
    /// one storage: SQLite, its own connections to the file), comparing both after every write
    /// with what `storage` — a backend on the same storage — holds.
    static func check(_ codes: [Int], open: (EntitySchema) async throws -> Store, storage: () throws -> any StorageBackend) async {
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        guard let first = try? await open(schema), let second = try? await open(schema) else {
            Issue.record("cannot open")
            return
        }
        var rest = codes[...]
        while !rest.isEmpty {
            let batch = Array(rest.prefix(1 + rest.first! % 5))
            rest = rest.dropFirst(batch.count)
            let (writer, other) = batch.last! % 2 == 0 ? (first, second) : (second, first)
            // The other store reads everything first: its cache holds the rows about to change.
            _ = Copies.dumped(other.context)
            _ = try? await writer.write { context in
                for code in batch { Copies.apply(code, to: &context) }
            }
            try? await other.refresh()
            guard let whole = try? loadedWhole(storage(), schema: schema) else {
                Issue.record("cannot load")
                return
            }
            let stored = Copies.dumped(whole)
            #expect(Copies.dumped(other.context) == stored, "the store that caught up")
            #expect(Copies.dumped(writer.context) == stored, "the store that wrote")
            #expect(throws: Never.self) { try other.context.checkInvariants() }
        }
        try? await first.close()
        try? await second.close()
    }
}
