import Synchronization
/// The entity types a decoder may meet, by name: what decoding a ``ChangeSet`` (or a store)
/// needs to turn a type name back into a type.
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.userInfo[.relataSchema] = EntitySchema(User.self, Chat.self, Message.self)
/// let changes = try decoder.decode(ChangeSet.self, from: data)
/// ```
///
/// A store keeps each type under its ``EntityModelProtocol/storedTypeName``, by default the
/// module-qualified name (`ChatApp.User`), so types of the same name in two modules share one store. A ``ChangeSet``
/// names types without their module. Either name finds the type: the qualified one exactly, the
/// short one when one type of the schema has it (stores written before names were qualified are
/// read that way, then rewritten under the qualified names once).
public struct EntitySchema: Sendable {
    /// The types by module-qualified name.
    let types: [String: any EntityModelProtocol.Type]
    /// The types by name without module, when one type has that name.
    let shortNames: [String: any EntityModelProtocol.Type]

    /// Stored names two different types claim, with the types' names (see ``validate()``).
    let conflicts: [(name: String, first: String, second: String)]

    /// A schema of these entity types.
    ///
    /// Two different types stored under one name (a custom `storedTypeName` given twice) make a
    /// schema no store opens: ``validate()`` and `Store`'s initializers throw.
    public init(_ types: [any EntityModelProtocol.Type]) {
        var byName: [String: any EntityModelProtocol.Type] = [:]
        var byShortName: [String: [any EntityModelProtocol.Type]] = [:]
        var conflicts: [(name: String, first: String, second: String)] = []
        for type in types {
            let name = Self.storageName(of: type)
            if let known = byName[name], known != type {
                conflicts.append((name, Self.qualifiedName(of: known), Self.qualifiedName(of: type)))
            }
            guard byName[name] == nil else { continue }
            byName[name] = type
            byShortName[_typeName(type, qualified: false), default: []].append(type)
        }
        self.types = byName
        self.shortNames = byShortName.compactMapValues { $0.count == 1 ? $0[0] : nil }
        self.conflicts = conflicts
    }

    /// Checks that no two types are stored under one name.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/invalidConfiguration`` naming the
    ///   stored name and both types.
    public func validate() throws(RelataError) {
        guard let conflict = conflicts.first else { return }
        throw RelataError(
            code: .invalidConfiguration, entityType: conflict.second,
            message: "two entity types are stored under the name \(conflict.name): \(conflict.first) and \(conflict.second)"
        )
    }

    /// A schema of these entity types.
    public init(_ types: any EntityModelProtocol.Type...) {
        self.init(types)
    }

    /// The type with this name — module-qualified, or without module when one type of the
    /// schema has it — if the schema has it.
    public func type(named name: String) -> (any EntityModelProtocol.Type)? {
        types[name] ?? shortNames[name]
    }

    /// Whether `name` is a type's name without its module (as stores written before names were
    /// qualified have it), rather than its stored name.
    func isShortName(_ name: String) -> Bool {
        types[name] == nil && shortNames[name] != nil
    }

    /// The indexes of the types that declare any, by stored name: what a store makes when it
    /// opens (see ``Index``).
    var storedIndexes: [String: [StoredIndex]] {
        types.compactMapValues { type in
            let indexes = type.storedIndexes
            return indexes.isEmpty ? nil : indexes
        }
    }

    /// The name a store keeps `type` under: its ``EntityModelProtocol/storedTypeName``.
    public static func storageName(of type: any EntityModelProtocol.Type) -> String {
        type.storedTypeName
    }

    /// The module-qualified name of `type` (`ChatApp.User`, nested types `ChatApp.Outer.User`),
    /// without the part Swift adds for a private or local type (`(unknown context at $…)`),
    /// which changes from build to build.
    public static func qualifiedName(of type: Any.Type) -> String {
        // Asked for on every read of a store (each row's type): reflected once per type.
        let key = ObjectIdentifier(type)
        if let known = qualifiedNames.withLock({ $0[key] }) { return known }
        // `_typeName` is what `String(reflecting:)` prints for a type, without asking first
        // whether the metatype conforms to three printing protocols: each such first question
        // scans every conformance of the program (milliseconds at a store's open in a large one).
        var name = _typeName(type, qualified: true)
        if name.contains("(unknown context at ") {
            name = name.replacing(/\(unknown context at \$[0-9a-fA-F]+\)\./, with: "")
        }
        qualifiedNames.withLock { $0[key] = name }
        return name
    }

    /// The names ``qualifiedName(of:)`` found, by type.
    private static let qualifiedNames = Mutex<[ObjectIdentifier: String]>([:])
}

extension CodingUserInfoKey {
    /// The ``EntitySchema`` a decoder uses to decode a ``ChangeSet``.
    public static let relataSchema = CodingUserInfoKey(rawValue: "relata.schema")!
}
