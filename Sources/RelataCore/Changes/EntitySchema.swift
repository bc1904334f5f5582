/// The entity types a decoder may meet, by name: what decoding a ``ChangeSet`` (or a store)
/// needs to turn a type name back into a type.
///
/// ```swift
/// let decoder = JSONDecoder()
/// decoder.userInfo[.relataSchema] = EntitySchema(User.self, Chat.self, Message.self)
/// let changes = try decoder.decode(ChangeSet.self, from: data)
/// ```
///
/// A type is known by its name without module (`String(describing:)`); two types with the same
/// name in one schema are a programmer error.
public struct EntitySchema: Sendable {
    let types: [String: any EntityModelProtocol.Type]

    /// A schema of these entity types.
    public init(_ types: [any EntityModelProtocol.Type]) {
        var byName: [String: any EntityModelProtocol.Type] = [:]
        for type in types {
            let name = String(describing: type)
            precondition(byName[name] == nil || byName[name]! == type, "two entity types are named \(name)")
            byName[name] = type
        }
        self.types = byName
    }

    /// A schema of these entity types.
    public init(_ types: any EntityModelProtocol.Type...) {
        self.init(types)
    }

    /// The type with this name, if the schema has it.
    public func type(named name: String) -> (any EntityModelProtocol.Type)? {
        types[name]
    }
}

extension CodingUserInfoKey {
    /// The ``EntitySchema`` a decoder uses to decode a ``ChangeSet``.
    public static let relataSchema = CodingUserInfoKey(rawValue: "relata.schema")!
}
