/// What a Store write's context over storage knows of one relation's stored links beyond the
/// links its ``LinkTable`` holds: the lists it appended to without reading them, the links it
/// voided or set without reading what storage held, and what is read of them in one batch
/// before the write's delta (`Context.resolveUnreadLinks`).
///
/// A table has none (`LinkTable.write` is `nil`) until a step that needs it makes it: never in a
/// context that holds everything (the in-memory `Context`), and in a Store's reads only for
/// ``readStored``. The hot paths test it for `nil` and go on.
@usableFromInline
struct LinkWriteOverlay<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: Sendable {
    /// In a context over storage, the to-many sources whose `many` entry holds only targets this
    /// context appended after the stored list without reading it (``LinkTable/appendNew(_:to:using:deferTail:)``),
    /// with the stored list's last key (`nil`: the stored list is empty). Reading such a list
    /// reads the stored one and places the appended targets in it.
    @usableFromInline var storedTails: [SourceID: PositionKey?] = [:]
    /// In a Store write's context over storage, for the to-many side of a relation whose to-one
    /// side was set without reading it (see `Context.linkWithoutReading`): the targets whose
    /// stored place in a list is void — they were linked elsewhere — dropped from every list read
    /// from storage from then on — each with the list it was appended to then (the one that
    /// keeps its stored place if storage had it there already), `nil` when it was removed
    /// without being appended: one entry, so a link set so looks its target up once.
    @usableFromInline var departed: [TargetID: SourceID?] = [:]
    /// For the to-one side of such a relation: the sources set without reading their stored
    /// target, with the target set then; what storage held is read in one batch before the
    /// write's delta (`Context.resolveUnreadLinks`).
    @usableFromInline var unreadPrevious: [SourceID: TargetID] = [:]
    /// For a one-to-one relation set without reading storage (`Context.linkOneToOneWithoutReading`):
    /// each target claimed here by a source — a link read from storage to a claimed target, from
    /// another source, is void (that source was displaced).
    @usableFromInline var claimed: [TargetID: SourceID] = [:]
    /// The sources set so, with their target: what storage held for them is read in one batch
    /// before the write's delta.
    @usableFromInline var unreadOne: [SourceID: TargetID] = [:]
    /// Whether a to-one entry was read from storage into this table (then a claim could not void
    /// it in time: the one-to-one link is set by reading).
    @usableFromInline var readStored = false
    /// The sources whose appended targets have provisional keys: their stored list's tail is not
    /// read yet (see ``LinkTable/appendNew(_:to:using:deferTail:)``).
    @usableFromInline var provisional: Set<SourceID> = []
    /// Jitter for the keys provisional targets get once their list's tail is known (made on
    /// first use: seeding one costs a system call, and a context makes a table per relation).
    @usableFromInline var rekeying: JitterGenerator?

    @inlinable init() {}
}
