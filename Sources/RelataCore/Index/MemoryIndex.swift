/// An index of one property that a context's table keeps beside its entities (see
/// ``EntityTable/memoryIndexes``): made from a declaration (``IndexDeclaration/memoryIndex``) the
/// first time a query can use it, then kept by every save and erase of the table.
@usableFromInline
class MemoryIndex<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The indexed property.
    @usableFromInline let keyPath: PartialKeyPath<Entity>

    @usableFromInline init(keyPath: PartialKeyPath<Entity>) { self.keyPath = keyPath }

    /// Adds `entity` (not held yet).
    func insert(_ entity: Entity) { fatalError("abstract") }
    /// Adds every one of `entities` (none held yet).
    func build(from entities: some Collection<Entity>) { for entity in entities { insert(entity) } }
    /// Removes `entity` (held with these values).
    func remove(_ entity: Entity) { fatalError("abstract") }
    /// The ids of the entities passing every one of `lookups` this index answers (those of its
    /// property, with a test it keeps), in no order; `nil` when it answers none.
    @usableFromInline func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? { fatalError("abstract") }
    /// Whether the ids ``ids(_:)`` gives for `lookups` are exactly the entities passing every
    /// one of them (each of this index's property, with a test it answers exactly): a filter
    /// made of these lookups needs no test of the entities.
    @usableFromInline func answersExactly(_ lookups: [IndexLookup<Entity>]) -> Bool { false }
    /// The ids ``ids(_:)`` gives, and whether they are exact (``answersExactly(_:)``) when the
    /// index tells it as cheaply as it finds them (`nil`: ask ``answersExactly(_:)``).
    @usableFromInline func answer(_ lookups: [IndexLookup<Entity>]) -> (ids: [Entity.ID], exact: Bool?)? {
        ids(lookups).map { ($0, nil) }
    }
    /// How many ids ``ids(_:)`` gives, counted without listing them where the index can.
    func count(_ lookups: [IndexLookup<Entity>]) -> Int? { ids(lookups)?.count }
    /// The ids in the order of the indexed property (`descending`: greatest first; ties in no
    /// order), of those passing the `lookups` of that property, one at a time until `body`
    /// returns `false`; `false` when this index keeps no order.
    @usableFromInline func forEachInOrder(descending: Bool, within lookups: [IndexLookup<Entity>], _ body: (Entity.ID, _ tiesWithPrevious: Bool) -> Bool) -> Bool { false }
    /// A copy, for a table's copy.
    func copy() -> MemoryIndex<Entity> { fatalError("abstract") }
    /// What differs between the index and `entities` (the table's), if anything: checked by
    /// `checkInvariants()`.
    func mismatch(with entities: [Entity]) -> String? { fatalError("abstract") }
}

/// A ``HashIndex`` or ``Unique`` declaration's index in memory: the ids holding each value.
@usableFromInline
final class HashMemoryIndex<Entity: EntityModelProtocol, Value: Hashable>: MemoryIndex<Entity>, @unchecked Sendable {
    @usableFromInline let typedKeyPath: KeyPath<Entity, Value>
    @usableFromInline var holders: [Value: Set<Entity.ID>] = [:]
    /// The ids holding a lookup's value (`nil` when it is not a `Value`), and how many: made
    /// where the index is (in the model's module, from `_relataIndexes`), so they run
    /// specialized for its types — the generic class's own code looks up the metadata of its
    /// dictionary's types at every call.
    @usableFromInline let holding: Holding

    @usableFromInline
    struct Holding {
        @usableFromInline let count: (HashMemoryIndex, Any) -> Int?
        /// ``HashMemoryIndex/answer(_:)``: the holders of the first equality of the property, and
        /// whether it is the only lookup (then exact: one equality of the property is answered
        /// exactly), each lookup read in place.
        @usableFromInline let answer: (HashMemoryIndex, [IndexLookup<Entity>]) -> (ids: [Entity.ID], exact: Bool?)?

        @inlinable init(
            count: @escaping (HashMemoryIndex, Any) -> Int?,
            answer: @escaping (HashMemoryIndex, [IndexLookup<Entity>]) -> (ids: [Entity.ID], exact: Bool?)?
        ) {
            self.count = count
            self.answer = answer
        }
    }

    @inlinable
    convenience init(_ keyPath: KeyPath<Entity, Value>) {
        self.init(keyPath, holding: Holding(
            count: { index, value in (value as? Value).map { index.holders[$0]?.count ?? 0 } },
            answer: { index, lookups in
                for position in lookups.indices where lookups[position].test == .equal && lookups[position].keyPath == index.keyPath {
                    guard let value = lookups[position].value as? Value else { continue }
                    // Most often one holder (a unique value): listed without a copy of the set.
                    let holding = index.holders[value] ?? []
                    let ids = holding.count == 1 ? [holding.first!] : Array(holding)
                    return (ids, lookups.count == 1 && lookups[position].isExact)
                }
                return nil
            }
        ))
    }

    @usableFromInline
    init(_ keyPath: KeyPath<Entity, Value>, holding: Holding) {
        typedKeyPath = keyPath
        self.holding = holding
        super.init(keyPath: keyPath)
    }

    override func insert(_ entity: Entity) { holders[entity[keyPath: typedKeyPath], default: []].insert(entity.id) }

    override func remove(_ entity: Entity) {
        let value = entity[keyPath: typedKeyPath]
        holders[value]?.remove(entity.id)
        if holders[value]?.isEmpty == true { holders[value] = nil }
    }

    /// The holders of the first equality of the property.
    override func ids(_ lookups: [IndexLookup<Entity>]) -> [Entity.ID]? {
        holding.answer(self, lookups)?.ids
    }

    /// The holders of the first equality of the property, exact when it is the only lookup
    /// (``answersExactly(_:)`` is never asked of this index).
    override func answer(_ lookups: [IndexLookup<Entity>]) -> (ids: [Entity.ID], exact: Bool?)? {
        holding.answer(self, lookups)
    }

    override func count(_ lookups: [IndexLookup<Entity>]) -> Int? {
        for lookup in lookups where lookup.test == .equal && lookup.keyPath == keyPath {
            if let count = holding.count(self, lookup.value) { return count }
        }
        return nil
    }

    override func copy() -> MemoryIndex<Entity> {
        let copy = HashMemoryIndex(typedKeyPath, holding: holding)
        copy.holders = holders
        return copy
    }

    override func mismatch(with entities: [Entity]) -> String? {
        let fresh = HashMemoryIndex(typedKeyPath, holding: holding)
        for entity in entities { fresh.insert(entity) }
        return fresh.holders == holders ? nil : "the hash index of \(typedKeyPath) holds \(holders), its entities \(fresh.holders)"
    }
}

/// One test of one property a query's predicate makes (`\.age > 18`): what a ``MemoryIndex``
/// answers.
@usableFromInline
struct IndexLookup<Entity>: @unchecked Sendable {
    @usableFromInline let keyPath: PartialKeyPath<Entity>
    @usableFromInline let test: ColumnFilter.Test
    @usableFromInline let value: Any
    /// Whether the ids an index gives pass the test (`false`: they may pass, the filter decides
    /// — a text test answered by trigrams).
    @usableFromInline var isExact = true
}
