/// Names one relation of one entity type: its source type and ordinal — a one-way relation as
/// seen from its target's table (backlinks), or a relation a Store write has reads pending for.
@usableFromInline
struct RelationKey: Hashable, Sendable {
    @usableFromInline let source: ObjectIdentifier
    @usableFromInline let ordinal: Int

    @inlinable
    init(source: ObjectIdentifier, ordinal: Int) {
        self.source = source
        self.ordinal = ordinal
    }
}
