import PropertyBased
import Relata
@testable import RelataCore
import Testing

/// Random write sequences (the invariant test's operations plus dynamic relationships, in
/// batches, in closures that mutate, copy, or throw) must leave what a store's context reads —
/// entities, links in order, backlinks of one-way relations, dynamic relationships — equal to what
/// a whole load of its storage holds, to a plain context that made the same changes, and to the
/// store reopened. (The helpers serve the other random-write tests.)
@Suite("Store: random writes (property-based)")
struct StoreRandomWritesPropertyTests {
    typealias Ops = ContextInvariantPropertyTests

    static func dumped(_ context: Context) -> String {
        var text = dump(context, users: Ops.userIDs, chats: Ops.chatIDs, messages: Ops.messageIDs, attachments: Ops.attachmentIDs)
        for user in Ops.userIDs {
            text += "\n\(user) authored \(context.sources(linkingTo: user, through: \Message.$author))"
            text += " viewed \(context.sources(linkingTo: user, through: \Message.$viewedBy))"
        }
        return text
    }

    /// The dump without position keys (a plain context draws other random keys).
    static func order(_ dump: String) -> String {
        dump.replacing(/@[0-9A-Za-z]+/, with: "")
    }

    /// Applies operation `code`: the invariant test's operations, dynamic relationships (code 6
    /// of 7), and three messages saved to one chat without reading first (code 5 of 7).
    static func apply(_ code: Int, to context: inout Context) {
        var reference = ReferenceModel()
        if code % 7 == 5 {
            // Three messages saved to one chat, without reading anything first, as a payload
            // repeating part of what is stored: those already in it keep their places (in a
            // Store write, their list is read for that), the others are appended.
            let chat = Ops.pick(Ops.chatIDs, code / 7)
            for message in [Ops.pick(Ops.messageIDs, code / 21), Ops.pick(Ops.messageIDs, code / 126), Ops.pick(Ops.messageIDs, code / 756)] {
                try? Message(id: message, text: "again", chat: .id(chat)).save(to: &context)
            }
        } else if code % 7 == 6 {
            let refs = Ops.userIDs.map { EntityReference(User.self, id: $0) } + Ops.messageIDs.map { EntityReference(Message.self, id: $0) }
            let a = refs[(code / 7) % refs.count], b = refs[(code / 91) % refs.count]
            try? context.relate(a, DynamicRelationKind.allCases[(code / 3) % 3], b)
        } else {
            _ = try? Ops.apply(code, to: &context, &reference)
        }
    }

    /// How a batch's closure treats its context.
    enum ClosureKind: Int, CaseIterable {
        /// Mutates it.
        case plain
        /// Mutates a copy of it and assigns that back.
        case ownCopy
        /// Assigns a context kept from an earlier write, then mutates it.
        case keptCopy
        /// Mutates it, then throws.
        case throwing
    }

    struct Midway: Error {}

    /// Applies `batch` to `context` the way a closure of `kind` does (`stale`: the context a
    /// `.keptCopy` closure assigns first).
    static func perform(_ batch: [Int], as kind: ClosureKind, on context: inout Context, stale: Context) throws {
        switch kind {
        case .plain:
            for code in batch { apply(code, to: &context) }
        case .ownCopy:
            var copy = context
            for code in batch { apply(code, to: &copy) }
            context = copy
        case .keptCopy:
            context = stale
            for code in batch { apply(code, to: &context) }
        case .throwing:
            for code in batch { apply(code, to: &context) }
            throw Midway()
        }
    }

    @Test("After every write the store's context reads what storage holds and what a plain context that made the same changes holds", arguments: BackendKind.allCases)
    func contextAgrees(kind: BackendKind) async {
        await propertyCheck(count: kind == .memory ? 30 : 10, input: Gen.int(in: 0...100_000).array(of: 1...80)) { codes in
            await Self.check(codes, on: kind)
        }
    }

    /// Applies `codes` in batches through a store of `kind`, comparing after every write.
    static func check(_ codes: [Int], on kind: BackendKind) async {
        guard let harness = try? StoreHarness(kind) else { return }
        defer { harness.remove() }
        await check(codes, open: { try await harness.open(schema: $0) }, storage: { try harness.backend() })
    }

    /// Applies `codes` in batches through the store `open` opens (on one storage each time),
    /// comparing after every write with what `storage` — a backend on the same storage — holds.
    static func check(_ codes: [Int], open: (EntitySchema) async throws -> Store, storage: () throws -> any StorageBackend) async {
        let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
        guard let store = try? await open(schema) else {
            Issue.record("cannot open")
            return
        }
        var plain = Context()
        var rest = codes[...]
        while !rest.isEmpty {
            let batch = Array(rest.prefix(1 + rest.first! % 7))
            rest = rest.dropFirst(batch.count)
            // A context kept from an earlier write answers as of it (see StoreWritePathTests).
            let kinds: [ClosureKind] = [.plain, .ownCopy, .throwing]
            let kind = kinds[batch.last! % kinds.count]
            let result: Void? = try? await store.write { context in
                try Self.perform(batch, as: kind, on: &context, stale: Context())
            }
            if kind == .throwing {
                #expect(result == nil)
            } else {
                for code in batch { Self.apply(code, to: &plain) }
            }
            let now = Self.dumped(store.context)
            guard let whole = try? loadedWhole(storage(), schema: schema) else {
                Issue.record("cannot load")
                return
            }
            #expect(Self.dumped(whole) == now, "storage, position keys included")
            #expect(Self.order(now) == Self.order(Self.dumped(plain)))
            #expect(throws: Never.self) { try store.context.checkInvariants() }
        }
        let final = Self.dumped(store.context)
        try? await store.close()
        guard let reopened = try? await open(schema) else {
            Issue.record("cannot reopen")
            return
        }
        #expect(Self.dumped(reopened.context) == final)
        try? await reopened.close()
    }
}
