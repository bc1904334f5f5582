import OrderedCollections

/// Type-erased base of ``LinkTable`` so tables of every type fit in one array.
@usableFromInline
class AnyLinkTable: @unchecked Sendable {
    @usableFromInline func clone() -> AnyLinkTable { fatalError("abstract") }
    @usableFromInline init() {}
    var linkCount: Int { 0 }
}

/// The links of one relation: source id to its ordered, distinct target ids.
///
/// To-one relations use `one`, to-many relations `many`; a table never uses both.
@usableFromInline
final class LinkTable<SourceID: Hashable & Sendable, TargetID: Hashable & Sendable>: AnyLinkTable, @unchecked Sendable {
    @usableFromInline var one: [SourceID: TargetID] = [:]
    @usableFromInline var many: [SourceID: OrderedSet<TargetID>] = [:]

    @usableFromInline override init() {}

    init(one: [SourceID: TargetID], many: [SourceID: OrderedSet<TargetID>]) {
        self.one = one
        self.many = many
    }

    @usableFromInline override func clone() -> AnyLinkTable { LinkTable(one: one, many: many) }

    override var linkCount: Int { one.count + many.values.reduce(0) { $0 + $1.count } }

    /// The targets of `source`, in order.
    @inlinable
    func targets(of source: SourceID, toMany: Bool) -> [TargetID] {
        if toMany { return many[source].map(\.elements) ?? [] }
        return one[source].map { [$0] } ?? []
    }

    @inlinable
    func count(of source: SourceID, toMany: Bool) -> Int {
        toMany ? (many[source]?.count ?? 0) : (one[source] == nil ? 0 : 1)
    }

    /// Adds `target` to the links of `source` (at the end for to-many; replacing for to-one).
    /// Returns the target a to-one link replaced, if any.
    @inlinable
    @discardableResult
    func add(_ target: TargetID, to source: SourceID, toMany: Bool) -> TargetID? {
        if toMany {
            many[source, default: []].append(target)
            return nil
        }
        let previous = one.updateValue(target, forKey: source)
        return previous == target ? nil : previous
    }

    /// Removes the link from `source` to `target`, if there is one.
    @inlinable
    func remove(_ target: TargetID, from source: SourceID, toMany: Bool) {
        if toMany {
            guard let index = many[source]?.firstIndex(of: target) else { return }
            many[source]!.remove(at: index)
            if many[source]!.isEmpty { many[source] = nil }
        } else if one[source] == target {
            one[source] = nil
        }
    }

    /// Removes every link of `source` and returns the targets it had, in order.
    @inlinable
    func removeAll(from source: SourceID, toMany: Bool) -> [TargetID] {
        if toMany { return many.removeValue(forKey: source).map(\.elements) ?? [] }
        return one.removeValue(forKey: source).map { [$0] } ?? []
    }
}
