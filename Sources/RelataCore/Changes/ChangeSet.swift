/// The changes made to a ``Context`` since a common snapshot: entity upserts and erasures, and
/// link inserts, moves and removes with their position keys, each stamped with a logical clock.
///
/// Record changes on every copy of a shared snapshot, then exchange them: merging the same
/// change sets in any order gives identical contexts.
///
/// ```swift
/// var phone = shared, laptop = shared
/// phone.beginRecordingChanges(replica: "phone")
/// laptop.beginRecordingChanges(replica: "laptop")
/// try Message(id: "m9", text: "hi", chat: .id("c1")).save(to: &phone)
/// try chat.move("m1", in: \.$messages, to: 0, in: &laptop)
/// phone.merge(laptop.changes)
/// laptop.merge(phone.changes)        // phone and laptop are now equal
/// ```
///
/// How concurrent changes resolve:
/// - Upserts of one entity apply in stamp order, each merged by the strategy it was saved with
///   (the entity's default or fragment strategy merges again on every replica, so concurrent
///   patches of different properties both survive; a custom strategy travels as its result).
/// - Inserts at the same place keep both elements (ordered by key, then by id).
/// - Moves of the same element: the later stamp wins; the element appears once.
/// - A move and a remove of the same element: it ends removed.
/// - A to-one relation set on two replicas: the later stamp wins, and the inverse follows.
///
/// A change set is `Sendable` and `Codable` (decoding needs the entity types, see
/// ``EntitySchema``).
public struct ChangeSet: Sendable {
    @usableFromInline var operations: [any ChangeOperation]

    /// An empty change set.
    public init() {
        operations = []
    }

    init(operations: [any ChangeOperation]) {
        self.operations = operations
    }

    /// Whether there is no change.
    public var isEmpty: Bool { operations.isEmpty }

    /// The number of changes (one per entity upserted or erased, one per link written).
    public var count: Int { operations.count }

    /// The stamps of the changes, in order.
    public var stamps: [ChangeStamp] { operations.map(\.stamp) }

    /// The number of changes that write a link (link, move or unlink).
    public var linkWriteCount: Int { operations.count { $0 is any LinkChangeProtocol } }
}

/// Marks link changes, whatever their types.
protocol LinkChangeProtocol {}
extension LinkChange: LinkChangeProtocol {}
