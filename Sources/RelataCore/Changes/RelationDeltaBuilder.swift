/// Makes what reads the marked links of each relation of one entity type into a
/// ``RelationDelta``: the pairs marked in `context`, with their values in `values`.
@usableFromInline
struct RelationDeltaBuilder: _RelationVisitor {
    @usableFromInline let context: Context
    @usableFromInline let values: Context
    @usableFromInline var readers: [@Sendable () -> RelationChange] = []
    /// How many links each reader reads.
    @usableFromInline var marks: [Int] = []

    @inlinable
    init(context: Context, values: Context) {
        self.context = context
        self.values = values
    }

    @inlinable
    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        let key = descriptor.key
        guard let (marked, dirty) = context.table(S.self)?.trackedLinks(key, T.ID.self) else { return }
        let links = values.storage === context.storage ? marked : values.table(S.self)?.existingLinkTable(key, T.ID.self)
        marks.append(dirty.count)
        readers.append {
            var delta = RelationDelta(descriptor: descriptor)
            if key.toMany {
                delta.toMany.reserveCapacity(dirty.count)
                for pair in dirty { delta.toMany.append((pair.source, pair.target, links?.many[pair.source]?.key(of: pair.target))) }
            } else {
                delta.toOne.reserveCapacity(dirty.count)
                for pair in dirty { delta.toOne.append((pair.source, links?.one[pair.source])) }
            }
            let changes = delta
            return RelationChange(
                key: key, changes: changes,
                bind: { context in
                    let links = context.mutableTable(S.self).linkTable(key, T.ID.self)
                    // A one-way relation's backlinks live in the target type's table.
                    let backlinks = descriptor.inverse == nil ? context.backlinks(descriptor) : nil
                    return { changes.apply(to: links, backlinks: backlinks) }
                },
                count: changes.count
            )
        }
    }
}
