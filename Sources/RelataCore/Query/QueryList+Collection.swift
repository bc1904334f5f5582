/// A list query is also the collection of its entities' queries, as SwiftletModel's `related`
/// returns an array of queries: `isEmpty`, `count`, `first`, iteration and indexing give one
/// ``Query`` per id, shaped like the list (`related(\.$chats).with(\.$users)[0].resolve()`).
extension QueryList: RandomAccessCollection {
    /// The position of the first id: 0.
    public var startIndex: Int { 0 }
    /// One past the last id: the number of ids.
    public var endIndex: Int { ids.count }

    /// The query of the entity at `index`, shaped like this list (its filters and order apply to
    /// ``resolve()`` only).
    public subscript(index: Int) -> Query<Entity> {
        Query(source: .id(ids[index]), context: context, steps: steps)
    }
}
