import Foundation

/// What a context keeps about each entity besides its value (SwiftletModel's metadata): the time
/// it was last saved. Sort by it with ``QueryList/sorted(by:)-(Metadata)`` and filter by it with
/// ``MetadataPredicate/updated(within:)``: the building block for sending a backend what changed.
///
/// ```swift
/// let changed = Message.filter(.updated(within: lastSync...Date.now))
///     .sorted(by: .updatedAt)
///     .resolve(in: context)
/// ```
///
/// A context records the time on every save (``EntityModelProtocol/updatedAt(in:)``) and forgets
/// it when the entity is erased. A ``Store`` keeps it with each entity's row (SQLite and
/// PostgreSQL: an indexed column, so `filter(.updated(within:))` and `sorted(by: .updatedAt)` run
/// in storage): a context it hands out reads it with the entity. An entity stored by a version of
/// Relata that did not keep times has none until it is saved again.
public enum Metadata: String, Sendable, CaseIterable {
    /// When the entity was last saved.
    case updatedAt
}

/// A test of an entity's ``Metadata`` (SwiftletModel's `MetadataPredicate`).
public enum MetadataPredicate: Sendable, Equatable {
    /// Entities saved last within `range` (both ends included).
    case updated(within: ClosedRange<Date>)

    /// Whether an entity last saved at `updatedAt` (`nil`: never, in this context) passes.
    func includes(_ updatedAt: Date?) -> Bool {
        switch self {
        case .updated(let range): updatedAt.map(range.contains) ?? false
        }
    }

    /// The tests storage runs first (see ``ColumnFilter``).
    var columnFilters: [ColumnFilter] {
        switch self {
        case .updated(let range): ColumnFilter.updated(within: range)
        }
    }
}

extension EntityModelProtocol {
    /// When this entity (by its id) was last saved in `context`, or `nil` if it is not stored
    /// there or was not saved through it.
    ///
    /// - Complexity: O(1).
    public func updatedAt(in context: Context) -> Date? {
        context.updatedAt(of: Self.self, id: id)
    }

    /// When this entity, or with `withNested` any related entity it carries (resolved by a
    /// query's `with`, nested ones included), was last saved in `context`: the latest of them.
    ///
    /// - Complexity: O(entities carried).
    public func updatedAt(in context: Context, withNested: Bool) -> Date? {
        guard withNested else { return updatedAt(in: context) }
        var visitor = LatestUpdate(entity: self, context: context)
        try? Self._relataVisitRelations(&visitor)
        return [updatedAt(in: context), visitor.latest].compactMap { $0 }.max()
    }
}

/// Finds the latest save time among the entities an entity carries in its relations.
private struct LatestUpdate<Source: EntityModelProtocol>: _RelationVisitor {
    let entity: Source
    let context: Context
    var latest: Date?

    mutating func visit<S, Target, Directionality, Cardinality, Constraints>(
        _ descriptor: RelationDescriptor<S, Target>,
        _ keyPath: WritableKeyPath<S, Relation<Target, Directionality, Cardinality, Constraints>>
    ) throws {
        guard let entity = entity as? S else { return }
        for target in entity[keyPath: keyPath].entities {
            if let date = target.updatedAt(in: context, withNested: true), date > (latest ?? .distantPast) { latest = date }
        }
    }
}

extension Context {
    /// When the entity `id` of type `Entity` was last saved (read from storage with the entity,
    /// in a context over storage).
    func updatedAt<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID) -> Date? {
        guard let table = table(Entity.self) else { return nil }
        return exclusively {
            table.ensure(id)
            return table.savedAt(id)
        }
    }
}
