import PropertyBased
import Relata
@_spi(Replica) @testable import RelataCore
import Testing

/// A Store keeps two copies of its state; after every write the spare one catches up by copying
/// what the write changed. Random write sequences (the invariant test's operations plus dynamic
/// relationships, in batches) must leave both copies identical — entities, links in order,
/// backlinks of one-way relations, dynamic relationships — and equal to a plain context that made
/// the same changes, and to the store reopened.
@Suite("Store: left-right copies (property-based)")
struct StoreLeftRightPropertyTests {
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

    static func apply(_ code: Int, to context: inout Context) {
        var reference = ReferenceModel()
        if code % 7 == 6 {
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

    @Test("After every write both copies equal the plain context that made the same changes, whatever the closure does")
    func copiesAgree() async {
        await propertyCheck(count: 40, input: Gen.int(in: 0...100_000).array(of: 1...80)) { codes in
            let backend = InMemoryBackend()
            let schema = EntitySchema(User.self, Chat.self, Message.self, Attachment.self)
            guard let store = try? await Store(loadingEverything: backend, schema: schema) else {
                Issue.record("cannot open")
                return
            }
            var plain = Context()
            var kept = Context()
            var rest = codes[...]
            while !rest.isEmpty {
                let batch = Array(rest.prefix(1 + rest.first! % 7))
                rest = rest.dropFirst(batch.count)
                let kind = ClosureKind(rawValue: batch.last! % ClosureKind.allCases.count)!
                let stale = kept
                let result = try? await store.write { context in
                    try Self.perform(batch, as: kind, on: &context, stale: stale)
                    return context
                }
                switch kind {
                case .plain, .ownCopy:
                    for code in batch { Self.apply(code, to: &plain) }
                case .keptCopy:
                    plain = stale
                    for code in batch { Self.apply(code, to: &plain) }
                case .throwing:
                    #expect(result == nil)
                }
                if let result { kept = result }
                let published = store.context, spare = await store.spareForTesting
                let now = Self.dumped(published)
                #expect(Self.dumped(spare) == now, "the copies, position keys included")
                #expect(Self.order(now) == Self.order(Self.dumped(plain)))
                #expect(throws: Never.self) { try spare.checkInvariants() }
            }
            try? await store.close()
            guard let reopened = try? await Store(loadingEverything: backend, schema: schema) else {
                Issue.record("cannot reopen")
                return
            }
            #expect(Self.dumped(reopened.context) == Self.dumped(store.context))
        }
    }
}
