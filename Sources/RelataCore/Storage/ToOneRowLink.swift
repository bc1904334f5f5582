/// What one to-one relation of a source brings to the source's entity row in a Store write,
/// worked out once per source (see ``ToOneLinkReader/rowLinks``): the link the row keeps, the
/// targets whose lists of sources the write changed, and whether storage's link stays as it was.
@usableFromInline
struct ToOneRowLink {
    /// The link the row keeps after the write; `nil` when the source links to nothing.
    @usableFromInline var record: ToOneLinkRecord?
    /// The old and the new target when the link moved to another target, or the target when the
    /// source's place in its list moved; empty otherwise.
    @usableFromInline var moved: [LinkTargetKey]
    /// The relation's name when the link is the one storage held — the same target at the same
    /// place, or none before and after — as far as the old rows tell for certain, and whether
    /// there is a link; `nil` otherwise.
    @usableFromInline var unchanged: (relation: String, linked: Bool)?

    @inlinable
    init(record: ToOneLinkRecord?, moved: [LinkTargetKey], unchanged: (relation: String, linked: Bool)?) {
        self.record = record
        self.moved = moved
        self.unchanged = unchanged
    }
}
