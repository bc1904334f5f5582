/// What a Store write's context over storage left unread as its closure ran, to be read in one
/// batch per relation before the write's delta (`Context.resolveUnreadLinks`); the links' own
/// part is each link table's ``LinkWriteOverlay``. Empty in every other context.
@usableFromInline
struct WriteOverlay: Sendable {
    /// In a Store write: for each relation whose to-one side was set without reading what
    /// storage held (`Context.linkWithoutReading`), what reads it in one batch before the
    /// write's delta; keyed by the source type and the relation's ordinal.
    @usableFromInline var unreadLinks: [RelationKey: DeferredRead] = [:]
    /// In a Store write: for each to-many side appended to with provisional keys, what reads
    /// its lists' tails in one batch before the write's delta (`LinkTable.appendNew`).
    @usableFromInline var provisionalTails: [RelationKey: DeferredRead] = [:]
    /// In a Store write over storage whose reads are cheap (SQLite): how many links were
    /// appended to stored lists reading each list's tail on the spot. Past
    /// `Context.eagerTailReads` of them, the write is a bulk one and the rest are batched.
    @usableFromInline var eagerTailReads = 0

    @inlinable init() {}
}
