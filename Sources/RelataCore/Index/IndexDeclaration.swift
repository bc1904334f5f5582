/// One index an entity type declares (``Index``, ``HashIndex``, ``Unique``, ``FullTextIndex``),
/// as `@EntityModel` lists it in `_relataIndexes`.
public struct IndexDeclaration<Entity: EntityModelProtocol>: @unchecked Sendable {
    /// The kind of index.
    public let kind: IndexKind
    /// The properties, in order.
    let keyPaths: [PartialKeyPath<Entity>]
    /// The text properties of a full-text index.
    let textKeyPaths: [KeyPath<Entity, String>]
    /// What a unique index keeps unique, and how collisions resolve.
    let uniqueness: Uniqueness<Entity>?
    /// Makes the index a context keeps in memory (see ``MemoryIndex``): for a sorted index its
    /// first property, for a hashed or unique one of one `Hashable` property, for a full-text
    /// one its trigrams; `nil` otherwise.
    @usableFromInline var memoryIndex: (() -> MemoryIndex<Entity>)?

    /// A sorted index (``Index``).
    public static func sorted<T0: Comparable>(_ kp0: KeyPath<Entity, T0>) -> Self { Self(kind: .sorted, [kp0]).sortedInMemory(kp0) }
    /// A sorted index of two properties.
    public static func sorted<T0: Comparable, T1>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) -> Self {
        Self(kind: .sorted, [kp0, kp1]).sortedInMemory(kp0)
    }
    /// A sorted index of three properties.
    public static func sorted<T0: Comparable, T1, T2>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>) -> Self {
        Self(kind: .sorted, [kp0, kp1, kp2]).sortedInMemory(kp0)
    }
    /// A sorted index of four properties.
    public static func sorted<T0: Comparable, T1, T2, T3>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) -> Self {
        Self(kind: .sorted, [kp0, kp1, kp2, kp3]).sortedInMemory(kp0)
    }

    /// An equality index (``HashIndex``).
    @inlinable
    public static func hashed<T0: Hashable>(_ kp0: KeyPath<Entity, T0>) -> Self { declared(.hashed, [kp0]).hashedInMemory(kp0) }
    /// An equality index of two properties.
    public static func hashed<T0, T1>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>) -> Self { Self(kind: .hashed, [kp0, kp1]) }
    /// An equality index of three properties.
    public static func hashed<T0, T1, T2>(_ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>) -> Self {
        Self(kind: .hashed, [kp0, kp1, kp2])
    }
    /// An equality index of four properties.
    public static func hashed<T0, T1, T2, T3>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>
    ) -> Self {
        Self(kind: .hashed, [kp0, kp1, kp2, kp3])
    }

    /// A unique index (``Unique``) of one property.
    public static func unique<T0: Equatable>(_ kp0: KeyPath<Entity, T0>, collisions: CollisionResolver<Entity> = .upsert) -> Self {
        Self(kind: .unique, [kp0], uniqueness: Uniqueness([kp0], collisions) { $0[keyPath: kp0] == $1[keyPath: kp0] })
    }
    /// A unique index of one `Hashable` property, kept in memory as a hash index.
    @inlinable
    public static func unique<T0: Hashable>(_ kp0: KeyPath<Entity, T0>, collisions: CollisionResolver<Entity> = .upsert) -> Self {
        uniqueOne(kp0, collisions).hashedInMemory(kp0)
    }

    /// A unique index of `kp0`, without its index in memory.
    @usableFromInline
    static func uniqueOne<T0: Equatable>(_ kp0: KeyPath<Entity, T0>, _ collisions: CollisionResolver<Entity>) -> Self {
        Self(kind: .unique, [kp0], uniqueness: Uniqueness([kp0], collisions) { $0[keyPath: kp0] == $1[keyPath: kp0] })
    }

    /// A declaration of `kind` on `keyPaths`, without an index in memory.
    @usableFromInline
    static func declared(_ kind: IndexKind, _ keyPaths: [PartialKeyPath<Entity>]) -> Self { Self(kind: kind, keyPaths) }
    /// A unique index of two properties.
    public static func unique<T0: Equatable, T1: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, collisions: CollisionResolver<Entity> = .upsert
    ) -> Self {
        Self(kind: .unique, [kp0, kp1], uniqueness: Uniqueness([kp0, kp1], collisions) { a, b in
            a[keyPath: kp0] == b[keyPath: kp0] && a[keyPath: kp1] == b[keyPath: kp1]
        })
    }
    /// A unique index of three properties.
    public static func unique<T0: Equatable, T1: Equatable, T2: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, collisions: CollisionResolver<Entity> = .upsert
    ) -> Self {
        Self(kind: .unique, [kp0, kp1, kp2], uniqueness: Uniqueness([kp0, kp1, kp2], collisions) { a, b in
            a[keyPath: kp0] == b[keyPath: kp0] && a[keyPath: kp1] == b[keyPath: kp1] && a[keyPath: kp2] == b[keyPath: kp2]
        })
    }
    /// A unique index of four properties.
    public static func unique<T0: Equatable, T1: Equatable, T2: Equatable, T3: Equatable>(
        _ kp0: KeyPath<Entity, T0>, _ kp1: KeyPath<Entity, T1>, _ kp2: KeyPath<Entity, T2>, _ kp3: KeyPath<Entity, T3>,
        collisions: CollisionResolver<Entity> = .upsert
    ) -> Self {
        Self(kind: .unique, [kp0, kp1, kp2, kp3], uniqueness: Uniqueness([kp0, kp1, kp2, kp3], collisions) { a, b in
            a[keyPath: kp0] == b[keyPath: kp0] && a[keyPath: kp1] == b[keyPath: kp1] && a[keyPath: kp2] == b[keyPath: kp2]
                && a[keyPath: kp3] == b[keyPath: kp3]
        })
    }

    /// A full-text index (``FullTextIndex``) of `keyPaths`.
    public static func fullText(_ keyPaths: KeyPath<Entity, String>...) -> Self {
        var declaration = Self(kind: .fullText, keyPaths, text: keyPaths)
        declaration.memoryIndex = { FullTextMemoryIndex(keyPaths) }
        return declaration
    }

    private func sortedInMemory<T0: Comparable>(_ kp0: KeyPath<Entity, T0>) -> Self {
        var copy = self
        copy.memoryIndex = { SortedMemoryIndex(kp0) }
        return copy
    }

    /// The declaration, kept in memory as a hash index of `kp0` — made where the model's types
    /// are known (the model's `_relataIndexes`), so that the index's lookups run specialized.
    @inlinable
    func hashedInMemory<T0: Hashable>(_ kp0: KeyPath<Entity, T0>) -> Self {
        var copy = self
        copy.memoryIndex = { HashMemoryIndex(kp0) }
        return copy
    }

    private init(
        kind: IndexKind, _ keyPaths: [PartialKeyPath<Entity>], text: [KeyPath<Entity, String>] = [], uniqueness: Uniqueness<Entity>? = nil
    ) {
        self.kind = kind
        self.keyPaths = keyPaths
        self.textKeyPaths = text
        self.uniqueness = uniqueness
    }

    /// The declaration as storage keeps it: its kind and the names of its properties' columns;
    /// `nil` when a key path names no stored property (`\.address.city`: such an index is kept
    /// in memory only).
    @usableFromInline var stored: StoredIndex? {
        var properties: [String] = []
        for keyPath in keyPaths {
            guard let name = Entity.columnName(of: keyPath) else { return nil }
            properties.append(name)
        }
        return StoredIndex(kind: kind, properties: properties)
    }
}

extension EntityModelProtocol {
    /// The declared indexes storage can keep (see ``IndexDeclaration/stored``).
    static var storedIndexes: [StoredIndex] { _relataIndexes.compactMap { $0.stored } }

    /// The full-text index declared on exactly `keyPaths`, in order, if any.
    static func fullTextIndex(on keyPaths: [KeyPath<Self, String>]) -> IndexDeclaration<Self>? {
        _relataIndexes.first { $0.kind == .fullText && $0.textKeyPaths == keyPaths }
    }
}
