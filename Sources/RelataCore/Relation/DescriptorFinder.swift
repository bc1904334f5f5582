extension EntityModelProtocol {
    /// The typed descriptor of the relation `key` of this type, whose targets are `Target`.
    static func descriptor<Target: EntityModelProtocol>(
        _ key: _AnyRelationKey, to _: Target.Type
    ) -> RelationDescriptor<Self, Target> {
        var finder = DescriptorFinder<Self, Target> { $0.ordinal == key.ordinal }
        try? _relataVisitRelations(&finder)
        guard let found = finder.found else {
            preconditionFailure("\(Self.self) has no relation \(key.nameString) to \(Target.self)")
        }
        return found
    }
}

/// Finds one relation of `Source` among those `_relataVisitRelations` lists.
struct DescriptorFinder<Source: EntityModelProtocol, Target: EntityModelProtocol>: _RelationVisitor {
    let matches: (_AnyRelationKey) -> Bool
    var found: RelationDescriptor<Source, Target>?

    init(matching matches: @escaping (_AnyRelationKey) -> Bool) {
        self.matches = matches
    }

    mutating func visit<S, T, D, C, K>(
        _ descriptor: RelationDescriptor<S, T>,
        _ keyPath: WritableKeyPath<S, Relation<T, D, C, K>>
    ) throws {
        guard found == nil, matches(descriptor.key) else { return }
        found = descriptor as? RelationDescriptor<Source, Target>
    }
}
