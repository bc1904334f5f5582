extension Context {
    /// Checks that every link has its other side: each mutual link its inverse, each one-way link
    /// its backlink, and the reverse; each dynamic relationship joins two stored entities and is
    /// indexed from both ends; each declared index the context keeps in memory holds exactly its
    /// entities' values. O(links): each link's other side is a hash lookup. A context over
    /// storage reads everything it does not hold first (O(store)), and throws what a read failed with.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/invalidRelation`` naming the entity
    ///   type, id and relation of the first broken link, or ``RelataError/Code/invalidIndex``
    ///   naming the type of an index that differs from its entities.
    public func checkInvariants() throws {
        // Over storage: what the context does not hold is read first (the other side of each
        // link is read as it is checked).
        try exclusively {
            holdEverything()
            if let failure = storage.base?.failure { throw failure }
            for table in storage.tables {
                try table.checkInvariants(in: self)
            }
            try storage.dynamic?.checkInvariants(in: self)
        }
    }
}

struct InvariantChecker<Entity: EntityModelProtocol>: _RelationVisitor {
    let context: Context

    func visit<Source, Target, D, C, K>(
        _ descriptor: RelationDescriptor<Source, Target>,
        _ keyPath: WritableKeyPath<Source, Relation<Target, D, C, K>>
    ) throws {
        guard let forward = context.table(Source.self)?.existingLinkTable(descriptor.key, Target.ID.self) else {
            return
        }
        let sources = descriptor.key.toMany ? Array(forward.many.keys) : Array(forward.one.keys)
        for source in sources {
            if descriptor.key.toMany, forward.many[source]?.isSorted() == false {
                throw RelataError(
                    code: .invalidRelation, entityType: "\(Source.self)", id: "\(source)", relation: descriptor.name,
                    message: "targets are not in position order"
                )
            }
            for target in forward.targets(of: source, toMany: descriptor.key.toMany) {
                guard hasOtherSide(descriptor, source: source, target: target) else {
                    throw RelataError(
                        code: .invalidRelation, entityType: "\(Source.self)", id: "\(source)",
                        relation: descriptor.name,
                        message: "link to \(Target.self) \"\(target)\" has no inverse"
                    )
                }
            }
        }
        if let inverse = descriptor.inverse,
            let back = context.table(Target.self)?.existingLinkTable(inverse, Source.ID.self)
        {
            let targets = inverse.toMany ? Array(back.many.keys) : Array(back.one.keys)
            for target in targets {
                for source in back.targets(of: target, toMany: inverse.toMany)
                where !forward.contains(target, in: source, toMany: descriptor.key.toMany) {
                    throw RelataError(
                        code: .invalidRelation, entityType: "\(Target.self)", id: "\(target)",
                        relation: inverse.nameString,
                        message: "inverse link to \(Source.self) \"\(source)\" has no forward link"
                    )
                }
            }
        }
    }

    func hasOtherSide<S: EntityModelProtocol, T: EntityModelProtocol>(
        _ d: RelationDescriptor<S, T>, source: S.ID, target: T.ID
    ) -> Bool {
        guard let table = context.table(T.self) else { return false }
        if let inverse = d.inverse {
            return table.existingLinkTable(inverse, S.ID.self)?.contains(source, in: target, toMany: inverse.toMany) ?? false
        }
        let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
        guard let backlinks = table.backlinks[key] else { return false }
        return unsafeDowncast(backlinks, to: Backlinks<S, T>.self).sources(of: target)?.contains(source) ?? false
    }
}
