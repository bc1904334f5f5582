/// One link a commit set or removed (see ``StoreDelta/linkUpdates(_:)``).
public struct LinkUpdate<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: Sendable, Hashable {
    /// The source entity.
    public let source: SourceID
    /// The target: the one linked now, or the one unlinked (`nil` when a to-one relation lost its
    /// target, whose id the delta does not keep).
    public let target: TargetID?
    /// Whether `source` links `target` after the commit.
    public let isLinked: Bool
}

extension StoreDelta {
    /// The links of one relation that the commit set or removed, source by source, on this side
    /// (the inverse side of a mutual relation has its own entries, read through its key path).
    ///
    /// ```swift
    /// let added = commit.delta.linkUpdates(\Chat.$messages).filter(\.isLinked)
    /// ```
    ///
    /// - Complexity: O(entries of the relation).
    public func linkUpdates<Source: EntityModelProtocol, Target, D, C, K>(
        _ keyPath: KeyPath<Source, Relation<Target, D, C, K>>
    ) -> [LinkUpdate<Source.ID, Target.ID>] {
        let key = Source.relationKey(keyPath)
        guard let relation = relation(key, of: Source.self, to: Target.self) else { return [] }
        return relation.toOne.map { LinkUpdate(source: $0.source, target: $0.target, isLinked: $0.target != nil) }
            + relation.toMany.map { LinkUpdate(source: $0.source, target: $0.target, isLinked: $0.key != nil) }
    }
}
