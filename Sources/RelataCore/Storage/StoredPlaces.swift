/// The places of sources in their targets' lists as their stored rows give them, read once per
/// write by a ``ToOneLinkReader`` (the closures it makes share them).
@usableFromInline
final class StoredPlaces<SourceID: Hashable>: @unchecked Sendable {
    @usableFromInline var keys: [SourceID: PositionKey] = [:]

    @inlinable init() {}
}
