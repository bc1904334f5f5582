/// Inverse backlinks (Realm's `LinkingObjects`): the sources that link to an entity through a
/// relation, read from the index every link write keeps current — the inverse relation for mutual
/// relations, the backlink index for one-way ones.
extension Context {
    /// The ids of every `Source` that links to `target` through `keyPath`: in the inverse
    /// relation's order for a mutual relation, in id order for a one-way relation.
    ///
    /// ```swift
    /// let authored = context.sources(linkingTo: "1", through: \Message.$author)   // messages by user 1
    /// ```
    ///
    /// - Complexity: O(k) for k sources (O(k log k) for a one-way relation).
    public func sources<Source: EntityModelProtocol, Target, D, C, K>(
        linkingTo target: Target.ID, through keyPath: KeyPath<Source, Relation<Target, D, C, K>>
    ) -> [Source.ID] {
        let key = Source.relationKey(keyPath)
        let descriptor = Source.descriptor(key, to: Target.self)
        return exclusively {
            noteBacklinkRead(descriptor, target)
            if let inverse = descriptor.inverse {
                return table(Target.self)?.existingLinkTable(inverse, Source.ID.self)?.targets(of: target, toMany: inverse.toMany) ?? []
            }
            let sources = backlinkIndex(descriptor)?.sources(of: target)?.ids ?? []
            return sources.sorted(by: IDOrder.precedes)
        }
    }

    /// The number of `Source`s that link to `target` through `keyPath`, without building anything.
    ///
    /// - Complexity: O(1).
    public func countOfSources<Source: EntityModelProtocol, Target, D, C, K>(
        linkingTo target: Target.ID, through keyPath: KeyPath<Source, Relation<Target, D, C, K>>
    ) -> Int {
        let key = Source.relationKey(keyPath)
        let descriptor = Source.descriptor(key, to: Target.self)
        return exclusively {
            noteBacklinkRead(descriptor, target)
            if let inverse = descriptor.inverse {
                return table(Target.self)?.existingLinkTable(inverse, Source.ID.self)?.count(of: target, toMany: inverse.toMany) ?? 0
            }
            return backlinkIndex(descriptor)?.sources(of: target)?.count ?? 0
        }
    }

    /// Notes, for an observed closure, a read of the sources linking to `target` through `d`:
    /// the inverse relation's links of `target`, or the one-way relation's backlinks.
    func noteBacklinkRead<S: EntityModelProtocol, T: EntityModelProtocol>(_ d: RelationDescriptor<S, T>, _ target: T.ID) {
        guard let region = readRecorder else { return }
        if let inverse = d.inverse {
            region.insert(.links(ObjectIdentifier(T.self), inverse.ordinal, AnyHashable(target)))
        } else if d.key.toMany {
            region.insert(.backlinks(ObjectIdentifier(S.self), d.key.ordinal, AnyHashable(target)))
        } else {
            region.insert(.allBacklinks(ObjectIdentifier(S.self), d.key.ordinal))
        }
    }

    func backlinkIndex<S: EntityModelProtocol, T: EntityModelProtocol>(_ d: RelationDescriptor<S, T>) -> Backlinks<S, T>? {
        let key = RelationKey(source: ObjectIdentifier(S.self), ordinal: d.key.ordinal)
        return table(T.self)?.backlinks[key].map { unsafeDowncast($0, to: Backlinks<S, T>.self) }
    }
}

extension Query {
    /// A query for the entities that link to this one through `keyPath` (inverse backlinks).
    ///
    /// ```swift
    /// let messages = User.query("1", in: context).linking(\Message.$author).with(\.$chat).resolve()
    /// ```
    public func linking<Source: EntityModelProtocol, D, C, K>(
        _ keyPath: KeyPath<Source, Relation<Entity, D, C, K>>
    ) -> QueryList<Source> {
        list { context, id in context.sources(linkingTo: id, through: keyPath) }
    }

    /// The number of entities that link to this one through `keyPath` (0 for a deferred query:
    /// see ``countLinking(_:in:)``).
    ///
    /// - Complexity: O(1).
    public func countLinking<Source: EntityModelProtocol, D, C, K>(_ keyPath: KeyPath<Source, Relation<Entity, D, C, K>>) -> Int {
        guard let context else { return 0 }
        return countLinking(keyPath, in: context)
    }

    /// The number of entities that link to this one through `keyPath` in `context`.
    ///
    /// - Complexity: O(1).
    public func countLinking<Source: EntityModelProtocol, D, C, K>(
        _ keyPath: KeyPath<Source, Relation<Entity, D, C, K>>, in context: Context
    ) -> Int {
        guard let id = id(in: context) else { return 0 }
        return context.countOfSources(linkingTo: id, through: keyPath)
    }
}
