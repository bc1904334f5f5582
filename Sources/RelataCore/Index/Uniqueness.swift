/// What a ``Unique`` declaration keeps unique, and how a collision resolves: the rule a save
/// of the type follows (``Context/_resolveCollisions(_:)``).
struct Uniqueness<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The index's name, as SwiftletModel names it: its properties' names joined by `-`.
    let name: String
    let keyPaths: [PartialKeyPath<Entity>]
    let resolver: CollisionResolver<Entity>
    /// Whether two entities hold the same values (every key path equal).
    let holdSameValues: (Entity, Entity) -> Bool

    init(_ keyPaths: [PartialKeyPath<Entity>], _ resolver: CollisionResolver<Entity>, same: @escaping (Entity, Entity) -> Bool) {
        self.keyPaths = keyPaths
        self.resolver = resolver
        holdSameValues = same
        name = keyPaths.map { Entity.columnName(of: $0) ?? Self.lastComponent(of: $0) }.joined(separator: "-")
    }

    /// The tests storage can run to find the entities holding `entity`'s values: equality of
    /// each property kept in a column, `nil` as no column holding a value (see ``ColumnFilter``).
    func columnFilters(of entity: Entity) -> [ColumnFilter] {
        keyPaths.compactMap { keyPath in
            guard let column = Entity.columnName(of: keyPath) else { return nil }
            let value = entity[keyPath: keyPath]
            if let optional = value as? any _OptionalValue, optional._wrapped == nil { return ColumnFilter.isNull(column) }
            return ColumnFilter.columnValue(value).flatMap { ColumnFilter(column: column, test: .equal, value: $0) }
        }
    }

    /// `email` for `\User.email`: the last component of the key path's description.
    private static func lastComponent(of keyPath: PartialKeyPath<Entity>) -> String {
        String(describing: keyPath).split(separator: ".").last.map(String.init) ?? "\(keyPath)"
    }
}
