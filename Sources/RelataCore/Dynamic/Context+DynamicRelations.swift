/// Dynamic relationships (BartlebysCore's): relations between any two stored entities, declared in
/// neither type, created and removed at run time. See ``DynamicRelationKind``.
extension Context {
    /// Relates `subject` to `object`: `subject` owns `object`, is owned by it, or is freely
    /// related to it. Relating twice is a no-op; each relationship is a record of its own, so
    /// concurrent writers (Store tasks, merged replicas) never overwrite each other's.
    ///
    /// ```swift
    /// try context.relate(folder.reference, .owns, file.reference)
    /// ```
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/entityNotFound`` when either end is
    ///   not stored, ``RelataError/Code/invalidRelation`` when they are the same entity. The
    ///   context is unchanged when it throws.
    public mutating func relate(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) throws {
        try exclusivelyMutating { try $0.relateHolding(subject, kind, object) }
    }

    private mutating func relateHolding(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) throws {
        guard subject != object else {
            throw RelataError(
                code: .invalidRelation, entityType: subject.typeName, id: "\(subject.id)", relation: kind.rawValue,
                message: "\(subject) cannot be related to itself"
            )
        }
        for end in [subject, object] where !end.exists(in: self) {
            throw RelataError(
                code: .entityNotFound, entityType: end.typeName, id: "\(end.id)", relation: kind.rawValue,
                message: "cannot relate \(subject) \(kind.rawValue) \(object): \(end) is not stored"
            )
        }
        let link = DynamicLink(subject, kind, object)
        ensureDynamicLinks(of: subject)
        ensureDynamicLinks(of: object)
        guard storage.dynamic?.contains(link) != true else { return }
        mutableDynamicLinks().insert(link)
        recordDynamicLinkChange(.relate, link)
    }

    /// Removes the relationship `subject kind object`, if it exists. Nothing is erased: an owned
    /// entity that loses its last owner this way stays (only erasing an owner cascades).
    ///
    /// - Returns: Whether the relationship existed.
    @discardableResult
    public mutating func unrelate(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) -> Bool {
        exclusivelyMutating { $0.unrelateHolding(subject, kind, object) }
    }

    private mutating func unrelateHolding(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) -> Bool {
        let link = DynamicLink(subject, kind, object)
        ensureDynamicLinks(of: subject)
        ensureDynamicLinks(of: object)
        guard storage.dynamic?.contains(link) == true else { return false }
        mutableDynamicLinks().remove(link)
        recordDynamicLinkChange(.unrelate, link)
        return true
    }

    /// Whether `subject kind object` holds.
    public func isRelated(_ subject: EntityReference, _ kind: DynamicRelationKind, _ object: EntityReference) -> Bool {
        exclusively {
            ensureDynamicLinks(of: subject)
            return storage.dynamic?.contains(DynamicLink(subject, kind, object)) ?? false
        }
    }

    /// The entities `subject` is related to by `kind`: what it owns (`.owns`), its owners
    /// (`.ownedBy`), or its free relations (`.free`), ordered by type name, then id.
    ///
    /// - Complexity: O(k log k) for k related entities.
    public func related(_ subject: EntityReference, _ kind: DynamicRelationKind) -> [EntityReference] {
        exclusively {
            noteRead(.dynamic)
            ensureDynamicLinks(of: subject)
            guard let dynamic = storage.dynamic else { return [] }
            let set: Set<EntityReference>? =
                switch kind {
                case .owns: dynamic.owned[subject]
                case .ownedBy: dynamic.owners[subject]
                case .free: dynamic.free[subject]
                }
            return EntityReference.canonicallySorted(set ?? [])
        }
    }

    /// The number of entities `subject` is related to by `kind`, without listing them.
    ///
    /// - Complexity: O(1).
    public func countRelated(_ subject: EntityReference, _ kind: DynamicRelationKind) -> Int {
        exclusively {
            noteRead(.dynamic)
            ensureDynamicLinks(of: subject)
            guard let dynamic = storage.dynamic else { return 0 }
            return switch kind {
            case .owns: dynamic.owned[subject]?.count ?? 0
            case .ownedBy: dynamic.owners[subject]?.count ?? 0
            case .free: dynamic.free[subject]?.count ?? 0
            }
        }
    }

    /// Every dynamic relationship of `subject`, seen from it (`.owns`, then `.ownedBy`, then `.free`).
    public func dynamicRelations(of subject: EntityReference) -> [DynamicRelation] {
        DynamicRelationKind.allCases.flatMap { kind in related(subject, kind).map { DynamicRelation(kind, $0) } }
    }

    // MARK: - Internals

    /// The dynamic links, unique to this context so they can be mutated in place.
    mutating func mutableDynamicLinks() -> DynamicLinks {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
        guard storage.dynamic != nil else {
            let links = DynamicLinks()
            if storage.isTracking { links.dirty = [] }
            storage.dynamic = links
            return links
        }
        if !isKnownUniquelyReferenced(&storage.dynamic!) { storage.dynamic = storage.dynamic!.clone() }
        let links = storage.dynamic!
        // Marks left by a write that has ended (this is a copy that escaped it): stop marking.
        if links.dirty != nil, !storage.isTracking { links.dirty = nil }
        return links
    }

    /// Removes the dynamic links of the erased entity `id`, cascading when `cascade` (see below).
    @usableFromInline
    mutating func eraseDynamicLinks<Entity: EntityModelProtocol>(of _: Entity.Type, id: Entity.ID, cascade: Bool) throws {
        guard storage.dynamic != nil || readsDynamicLinks else { return }
        try eraseDynamicLinks(of: EntityReference(Entity.self, id: id), cascade: cascade)
    }

    /// Removes every dynamic link of the erased entity `ref`; when `cascade`, then erases each
    /// entity it owned that has no owner left (dynamic or declared).
    mutating func eraseDynamicLinks(of ref: EntityReference, cascade: Bool) throws {
        ensureDynamicLinks(of: ref)
        guard let links = storage.dynamic?.links(of: ref), !links.isEmpty else { return }
        // The other ends first, in one batch: a link removed here must not come back when they
        // are read.
        ensureDynamicLinks(of: links.map { $0.source == ref ? $0.target : $0.source })
        var orphans: [EntityReference] = []
        for link in links {
            mutableDynamicLinks().remove(link)
            recordDynamicLinkChange(.unrelate, link)
            if link.kind == .owns, link.source == ref { orphans.append(link.target) }
        }
        guard cascade else { return }
        for owned in orphans {
            try eraseIfOrphan(owned.entityType, owned)
        }
    }

    private mutating func eraseIfOrphan<Entity: EntityModelProtocol>(_: Entity.Type, _ ref: EntityReference) throws {
        guard let id = ref.id(as: Entity.self), entity(Entity.self, id: id) != nil, !hasOwner(Entity.self, id: id) else {
            return
        }
        try Entity.delete(id: id, from: &self)
    }

    /// Whether `ref` has a dynamic owner.
    func hasDynamicOwner(_ ref: EntityReference) -> Bool {
        ensureDynamicLinks(of: ref)
        return storage.dynamic?.owners[ref] != nil
    }

    /// Whether any entity dynamically owns one whose type can reach a `.deny` relation (then an
    /// erasure of any type must walk its cascade for `.deny`, whatever its declared relations say).
    @usableFromInline
    var hasDynamicDenyRisk: Bool {
        // Over storage the dynamic relationships are not all held: the risk is there as soon as
        // a type of the schema can reach `.deny` (the walk then reads what it needs).
        if let base = storage.base { return base.schemaReachesDeny }
        return storage.dynamic.map { $0.denyReachableOwnedCount > 0 } ?? false
    }

    mutating func recordDynamicLinkChange(_ kind: DynamicLinkChange.Kind, _ link: DynamicLink) {
        guard storage.recorder != nil else { return }
        let stamp = storage.recorder!.nextStamp()
        storage.recorder!.append(DynamicLinkChange(stamp: stamp, kind: kind, link: link))
    }
}

extension EntityModelProtocol {
    /// Relates this entity to `other` by `kind` (see ``Context/relate(_:_:_:)``).
    ///
    /// ```swift
    /// try folder.relate(.owns, file, in: &context)   // file is erased with folder, unless co-owned
    /// try file.relate(.free, tag, in: &context)
    /// ```
    public func relate<Other: EntityModelProtocol>(_ kind: DynamicRelationKind, _ other: Other, in context: inout Context) throws {
        try context.relate(reference, kind, other.reference)
    }

    /// Removes the relationship `self kind other`, if it exists (see ``Context/unrelate(_:_:_:)``).
    @discardableResult
    public func unrelate<Other: EntityModelProtocol>(_ kind: DynamicRelationKind, _ other: Other, in context: inout Context) -> Bool {
        context.unrelate(reference, kind, other.reference)
    }

    /// The stored entities of type `Other` this entity is related to by `kind`, in id order.
    ///
    /// ```swift
    /// let files = folder.related(.owns, File.self, in: context)
    /// let owners = file.related(.ownedBy, Folder.self, in: context)
    /// ```
    public func related<Other: EntityModelProtocol>(_ kind: DynamicRelationKind, _: Other.Type, in context: Context) -> [Other] {
        context.relatedIDs(reference, kind, Other.self).compactMap { context.entity(Other.self, id: $0) }
    }
}

extension Context {
    /// The ids of the `Other`s `subject` is related to by `kind`, in id order.
    func relatedIDs<Other: EntityModelProtocol>(_ subject: EntityReference, _ kind: DynamicRelationKind, _: Other.Type) -> [Other.ID] {
        related(subject, kind).compactMap { $0.id(as: Other.self) }.sorted(by: IDOrder.precedes)
    }
}

extension Query {
    /// A query for the entities of type `Other` this one is dynamically related to by `kind`.
    ///
    /// ```swift
    /// let files = Folder.query("docs", in: context).related(.owns, File.self).resolve()
    /// ```
    public func related<Other: EntityModelProtocol>(_ kind: DynamicRelationKind, _: Other.Type) -> QueryList<Other> {
        list { context, id in context.relatedIDs(EntityReference(Entity.self, id: id), kind, Other.self) }
    }
}
