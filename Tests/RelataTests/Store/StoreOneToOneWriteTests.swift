import Foundation
import Relata
@testable import RelataCore
import Testing

/// A Store write links a one-to-one relation (a message's attachment) without reading either
/// end's stored partner first; the partners it displaces lose their links all the same — in
/// storage, in the write's own reads, and for observers — as on a plain context.
@Suite("Store: one-to-one links set in a write")
struct StoreOneToOneWriteTests {
    static let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
    static let url = URL(string: "https://example.com/a")!

    static func message(_ id: String, attachment: Attachment? = nil) -> Message {
        Message(id: id, text: "t", author: .id("u"), chat: .id("c"), attachment: attachment.map { .relation($0) } ?? .none)
    }

    /// m1 with attachment a1, m2 with a2, stored.
    static func stored(_ harness: StoreHarness) async throws -> Store {
        let store = try await harness.open(schema: schema)
        try await store.write { context in
            try message("m1", attachment: Attachment(id: "a1", kind: .image(url: url))).save(to: &context)
            try message("m2", attachment: Attachment(id: "a2", kind: .image(url: url))).save(to: &context)
        }
        return store
    }

    /// The links of the four entities, as `context` reads them.
    static func links(_ context: Context) -> String {
        ["m1", "m2", "m3"].map { "\($0)→\(context.ids(of: $0, \Message.$attachment))" }.joined(separator: " ")
            + " " + ["a1", "a2", "a3"].map { "\($0)→\(context.ids(of: $0, \Attachment.$message))" }.joined(separator: " ")
    }

    /// The same writes on a plain context holding what the store held.
    static func reference(_ writes: (inout Context) throws -> Void) throws -> String {
        var context = Context()
        try message("m1", attachment: Attachment(id: "a1", kind: .image(url: url))).save(to: &context)
        try message("m2", attachment: Attachment(id: "a2", kind: .image(url: url))).save(to: &context)
        try writes(&context)
        return links(context)
    }

    static let cases: [(String, @Sendable (inout Context) throws -> Void)] = [
        // From the side that stores the link: a2 takes m1, whose attachment a1 loses it.
        ("attachment moved to another message", { try Attachment(id: "a2", kind: .image(url: url), message: .id("m1")).save(to: &$0) }),
        // From the derived side: m2 takes a1, which leaves m1.
        ("message takes another's attachment", { try message("m2", attachment: Attachment(id: "a1", kind: .image(url: url))).save(to: &$0) }),
        // New entities taking stored partners, both ways.
        ("new attachment on a stored message", { try Attachment(id: "a3", kind: .image(url: url), message: .id("m1")).save(to: &$0) }),
        ("new message with a stored attachment", { try message("m3", attachment: Attachment(id: "a2", kind: .image(url: url))).save(to: &$0) }),
        // Two moves in one write: a1 to m2, then a2 to m1 (a swap).
        ("two moves, a swap", { context in
            try Attachment(id: "a1", kind: .image(url: url), message: .id("m2")).save(to: &context)
            try Attachment(id: "a2", kind: .image(url: url), message: .id("m1")).save(to: &context)
        }),
        // Linked, then linked again elsewhere in the same write.
        ("linked twice", { context in
            try Attachment(id: "a3", kind: .image(url: url), message: .id("m1")).save(to: &context)
            try Attachment(id: "a3", kind: .image(url: url), message: .id("m2")).save(to: &context)
        }),
    ]

    @Test("Displaced partners lose their links in storage and in the store's context, as on a plain context", arguments: BackendKind.allCases, 0..<cases.count)
    func displaced(kind: BackendKind, index: Int) async throws {
        let (name, writes) = Self.cases[index]
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.stored(harness)
        let expected = try Self.reference(writes)
        try await store.write { try writes(&$0) }
        #expect(Self.links(store.context) == expected, "\(name): the store's context")
        let whole = try loadedWhole(harness.backend(), schema: Self.schema)
        #expect(Self.links(whole) == expected, "\(name): storage")
        try whole.checkInvariants()
        try store.context.checkInvariants()
        try await store.close()
    }

    @Test("Inside the write, reads after the link see the displaced partner without it", arguments: BackendKind.allCases)
    func readsInTheWrite(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.stored(harness)
        let seen = try await store.write { context in
            try Attachment(id: "a3", kind: .image(url: Self.url), message: .id("m1")).save(to: &context)
            try Self.message("m3", attachment: Attachment(id: "a2", kind: .image(url: Self.url))).save(to: &context)
            return Self.links(context)
        }
        #expect(seen == "m1→[\"a3\"] m2→[] m3→[\"a2\"] a1→[] a2→[\"m3\"] a3→[\"m1\"]")
        try await store.close()
    }

    @Test("An observer of a displaced message's attachment hears of the write", arguments: BackendKind.allCases)
    func observed(kind: BackendKind) async throws {
        let harness = try StoreHarness(kind)
        defer { harness.remove() }
        let store = try await Self.stored(harness)
        let updates = store.observe { Message.query("m2", in: $0).with(\.$attachment).resolve()?.attachment?.id }
        let iterator = updates.makeAsyncIterator()
        #expect(try await iterator.next() == .some("a2"))
        try await store.write { try Attachment(id: "a2", kind: .image(url: Self.url), message: .id("m1")).save(to: &$0) }
        #expect(try await iterator.next() == .some(nil), "m2 lost its attachment")
        try await store.close()
    }
}
