import PropertyBased
import Relata
import Testing

/// Three replicas of one snapshot make random concurrent edits (the invariant test's operations
/// plus ordered inserts and moves and patches), then merge each other's change sets in different
/// orders: every replica, and a fresh copy of the snapshot merging all sets in any order, must end
/// identical and consistent. Two rounds, so merged states are built on again.
@Suite("Replica convergence (property-based)")
struct ReplicaConvergencePropertyTests {
    typealias Ops = ContextInvariantPropertyTests

    static func dumped(_ context: Context) -> String {
        dump(context, users: Ops.userIDs, chats: Ops.chatIDs, messages: Ops.messageIDs, attachments: Ops.attachmentIDs)
    }

    /// Applies one random edit; an edit that throws (e.g. moving an unlinked element) changes nothing.
    static func edit(_ code: Int, _ context: inout Context) {
        var reference = ReferenceModel()
        let r = code / 18
        let chat = Chat(id: Ops.pick(Ops.chatIDs, r))
        let message = Ops.pick(Ops.messageIDs, r / 3)
        switch code % 18 {
        case 16, 17:
            // Dynamic relationships between any two of the chat graph's entities.
            let refs = Ops.userIDs.map { EntityReference(User.self, id: $0) } + Ops.chatIDs.map { EntityReference(Chat.self, id: $0) }
                + Ops.messageIDs.map { EntityReference(Message.self, id: $0) }
            let a = refs[r % refs.count], b = refs[(r / 13) % refs.count]
            let kind = DynamicRelationKind.allCases[(r / 5) % 3]
            if code % 18 == 16 {
                try? context.relate(a, kind, b)
            } else {
                context.unrelate(a, kind, b)
            }
        case 12, 13:
            let count = context.count(of: chat.id, \Chat.$messages)
            try? chat.insert(message, into: \.$messages, at: (r / 7) % (count + 1), in: &context)
        case 14:
            let count = context.count(of: chat.id, \Chat.$messages)
            let target = context.ids(of: chat.id, \Chat.$messages).first { $0 == message } ?? context.ids(of: chat.id, \Chat.$messages).first
            if let target { try? chat.move(target, in: \.$messages, to: (r / 7) % count, in: &context) }
        case 15:
            let note = r % 2 == 0 ? Note(id: "n", title: "t\(r)") : Note(id: "n", body: "b\(r)")
            try? note.save(to: &context)
        default:
            _ = try? Ops.apply(code % 18 + 12 * (code / 18), to: &context, &reference)
        }
    }

    @Test("Merging the same change sets in any order gives identical contexts")
    func convergence() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...1_000_000).array(of: 1...120)) { codes in
            var base = Context()
            for code in codes.prefix(20) { Self.edit(code, &base) }
            var rest = codes.dropFirst(20)
            for round in 0..<2 {
                var replicas = ["A", "B", "C"].map { name in
                    var replica = base
                    replica.beginRecordingChanges(replica: name)
                    return replica
                }
                let share = rest.prefix(50)
                rest = rest.dropFirst(50)
                for code in share { Self.edit(code / 3, &replicas[code % 3]) }
                let sets = replicas.map(\.changes)
                for (index, others) in [[1, 2], [2, 0], [0, 1]].enumerated() {
                    for other in others { replicas[index].merge(sets[other]) }
                }
                let expected = Self.dumped(replicas[0])
                for replica in replicas {
                    #expect(Self.dumped(replica) == expected, "round \(round)")
                    #expect(throws: Never.self) { try replica.checkInvariants() }
                }
                for order in [[0, 1, 2], [2, 1, 0], [1, 0, 2], [2, 0, 1]] {
                    var fresh = base
                    fresh.beginRecordingChanges(replica: "D")
                    for index in order { fresh.merge(sets[index]) }
                    #expect(Self.dumped(fresh) == expected, "round \(round), order \(order)")
                }
                base = replicas[0]
                base.endRecordingChanges()
            }
        }
    }
}
