import MacroTesting
import RelataMacroExpansion
import SwiftSyntaxMacroExpansion
import Testing

@Suite("@EntityModel expansion", .macros(
    ["EntityModel": MacroSpec(type: EntityModelMacro.self, conformances: ["EntityModelProtocol"])],
    record: .missing
))
struct EntityModelMacroTests {
    @Test("A mutual to-one, a required one-way and a to-many with a delete rule")
    func expansion() {
        assertMacro {
            """
            @EntityModel
            struct Message {
                let id: String
                var text: String?

                @Relationship(.required)
                var author: User?

                @Relationship(.required, inverse: \\.messages)
                var chat: Chat?

                @Relationship(deleteRule: .cascade, inverse: \\.message)
                var attachments: [Attachment]?
            }
            """
        } expansion: {
            #"""
            struct Message {
                let id: String
                var text: String?

                @Relationship(.required)
                var author: User?

                @Relationship(.required, inverse: \.messages)
                var chat: Chat?

                @Relationship(deleteRule: .cascade, inverse: \.message)
                var attachments: [Attachment]?

                @_documentation(visibility: private) typealias __RelataTarget_author = User

                @_documentation(visibility: private) typealias __RelataTarget_chat = Chat

                @_documentation(visibility: private) typealias __RelataTarget_attachments = Attachment

                init(
                    id: String,
                    text: String? = nil,
                    author: Relata.Relation<User, Relata.Relations.OneWay, Relata.Relations.ToOne, Relata.Relations.Required> = .none,
                    chat: Relata.Relation<Chat, Relata.Relations.Mutual, Relata.Relations.ToOne, Relata.Relations.Required> = .none,
                    attachments: Relata.Relation<Attachment, Relata.Relations.Mutual, Relata.Relations.ToMany, Relata.Relations.Optional> = .none
                ) {
                    self.id = id
                    self.text = text
                    self._author = Relata.Relationship(relation: author)
                    self._chat = Relata.Relationship(relation: chat)
                    self._attachments = Relata.Relationship(relation: attachments)
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                    try writer.writeOptional(entity.text, "text", 1)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                    self.text = try reader.readOptional(\Self.text, "text", 1)
                    self._author = Relata.Relationship(relation: .none)
                    self._chat = Relata.Relationship(relation: .none)
                    self._attachments = Relata.Relationship(relation: .none)
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    if Relata._relataNames(keyPath, \Self.text) {
                        return "text"
                    }
                    return nil
                }
            }

            extension Message: Relata.EntityModelProtocol {
                static var __relataKey_author: Relata._AnyRelationKey {
                    Relata._AnyRelationKey(ordinal: 0, name: "author", toMany: false)
                }

                static var __relata_author: Relata.RelationDescriptor<Message, Message.__RelataTarget_author> {
                    Relata.RelationDescriptor(
                        key: Self.__relataKey_author,
                        inverse: nil,
                        deleteRule: .nullify,
                        isRequired: true
                    )
                }

                static var __relataKey_chat: Relata._AnyRelationKey {
                    Relata._AnyRelationKey(ordinal: 1, name: "chat", toMany: false)
                }

                static var __relata_chat: Relata.RelationDescriptor<Message, Message.__RelataTarget_chat> {
                    Relata.RelationDescriptor(
                        key: Self.__relataKey_chat,
                        inverse: Message.__RelataTarget_chat.__relataKey_messages,
                        deleteRule: .nullify,
                        isRequired: true
                    )
                }

                static var __relataKey_attachments: Relata._AnyRelationKey {
                    Relata._AnyRelationKey(ordinal: 2, name: "attachments", toMany: true)
                }

                static var __relata_attachments: Relata.RelationDescriptor<Message, Message.__RelataTarget_attachments> {
                    Relata.RelationDescriptor(
                        key: Self.__relataKey_attachments,
                        inverse: Message.__RelataTarget_attachments.__relataKey_message,
                        deleteRule: .cascade,
                        isRequired: false
                    )
                }

                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Message>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try context._saveRelation(self.$author, of: self.id, Self.__relata_author)
                    try context._saveRelation(self.$chat, of: self.id, Self.__relata_chat)
                    try context._saveRelation(self.$attachments, of: self.id, Self.__relata_attachments)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                    self.$author = .none
                    self.$chat = .none
                    self.$attachments = .none
                }

                static var patch: Relata.MergeStrategy<Message> {
                    Relata.MergeStrategy<Message>(.patch(\Message.text))
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                    try visitor.visit(Self.__relata_author, \Message.$author, storage: \Message._author)
                    try visitor.visit(Self.__relata_chat, \Message.$chat, storage: \Message._chat)
                    try visitor.visit(Self.__relata_attachments, \Message.$attachments, storage: \Message._attachments)
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    if keyPath == \Message.$author {
                        return Self.__relataKey_author
                    }
                    if keyPath == \Message.$chat {
                        return Self.__relataKey_chat
                    }
                    if keyPath == \Message.$attachments {
                        return Self.__relataKey_attachments
                    }
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    if keyPath == \Message.$author {
                        return \Message._author
                    }
                    if keyPath == \Message.$chat {
                        return \Message._chat
                    }
                    if keyPath == \Message.$attachments {
                        return \Message._attachments
                    }
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id, text, author, chat, attachments
                }

                func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                    try container._relataEncodeIfPresent(self.text, forKey: .text)
                    try container.encode(self._author, forKey: .author)
                    try container.encode(self._chat, forKey: .chat)
                    try container.encode(self._attachments, forKey: .attachments)
                }

                init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                    self.text = try container._relataDecodeIfPresent(forKey: .text)
                    self._author = try container._relataDecodeRelationship(forKey: .author)
                    self._chat = try container._relataDecodeRelationship(forKey: .chat)
                    self._attachments = try container._relataDecodeRelationship(forKey: .attachments)
                }

                private static func __relataCheckInverses() {
                    Relata._relataInverseMustBeMutual(\Message.$chat, \Message.__RelataTarget_chat.$messages)
                    Relata._relataInverseMustBeMutual(\Message.$attachments, \Message.__RelataTarget_attachments.$message)
                }
            }
            """#
        }
    }

    @Test("@Unique is listed with its resolver, and a save resolves collisions before it stores the entity")
    func uniqueDeclarations() {
        assertMacro {
            """
            @EntityModel
            struct User {
                @Unique<Self>(\\.email, collisions: .throw) private var uniqueEmail
                @Unique<Self>(\\.firstName, \\.lastName) private var uniqueName
                let id: String
                var firstName: String
                var lastName: String
                var email: String
            }
            """
        } expansion: {
            #"""
            struct User {
                @Unique<Self>(\.email, collisions: .throw) private var uniqueEmail
                @Unique<Self>(\.firstName, \.lastName) private var uniqueName
                let id: String
                var firstName: String
                var lastName: String
                var email: String

                init(
                    id: String,
                    firstName: String,
                    lastName: String,
                    email: String
                ) {
                    self.id = id
                    self.firstName = firstName
                    self.lastName = lastName
                    self.email = email
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                    try writer.write(entity.firstName, "firstName", 1)
                    try writer.write(entity.lastName, "lastName", 2)
                    try writer.write(entity.email, "email", 3)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                    self.firstName = try reader.read(\Self.firstName, "firstName", 1)
                    self.lastName = try reader.read(\Self.lastName, "lastName", 2)
                    self.email = try reader.read(\Self.email, "email", 3)
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    if Relata._relataNames(keyPath, \Self.firstName) {
                        return "firstName"
                    }
                    if Relata._relataNames(keyPath, \Self.lastName) {
                        return "lastName"
                    }
                    if Relata._relataNames(keyPath, \Self.email) {
                        return "email"
                    }
                    return nil
                }
            }

            extension User: Relata.EntityModelProtocol {
                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<User>) throws {
                    try self.willSave(to: &context)
                    try context._resolveCollisions(self)
                    context._upsert(self, options: options)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                }

                static var patch: Relata.MergeStrategy<User> {
                    Relata.MergeStrategy<User>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                static var _relataIndexes: [Relata.IndexDeclaration<User>] {
                    [
                        .unique(\.email, collisions: .throw),
                        .unique(\.firstName, \.lastName)
                    ]
                }

                enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id, firstName, lastName, email
                }

                func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                    try container._relataEncode(self.firstName, forKey: .firstName)
                    try container._relataEncode(self.lastName, forKey: .lastName)
                    try container._relataEncode(self.email, forKey: .email)
                }

                init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                    self.firstName = try container._relataDecode(forKey: .firstName)
                    self.lastName = try container._relataDecode(forKey: .lastName)
                    self.email = try container._relataDecode(forKey: .email)
                }
            }
            """#
        }
    }

    @Test("Index declarations are listed in _relataIndexes and are neither columns nor initializer parameters")
    func indexDeclarations() {
        assertMacro {
            """
            @EntityModel
            struct User {
                @Index<Self>(\\.lastName, \\.firstName) private var nameIndex
                @HashIndex<Self>(\\.email) private var emailIndex
                @Relata.FullTextIndex<Self>(\\.bio) private var bioIndex
                let id: String
                var firstName: String
                var lastName: String
                var email: String
                var bio: String
            }
            """
        } expansion: {
            #"""
            struct User {
                @Index<Self>(\.lastName, \.firstName) private var nameIndex
                @HashIndex<Self>(\.email) private var emailIndex
                @Relata.FullTextIndex<Self>(\.bio) private var bioIndex
                let id: String
                var firstName: String
                var lastName: String
                var email: String
                var bio: String

                init(
                    id: String,
                    firstName: String,
                    lastName: String,
                    email: String,
                    bio: String
                ) {
                    self.id = id
                    self.firstName = firstName
                    self.lastName = lastName
                    self.email = email
                    self.bio = bio
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                    try writer.write(entity.firstName, "firstName", 1)
                    try writer.write(entity.lastName, "lastName", 2)
                    try writer.write(entity.email, "email", 3)
                    try writer.write(entity.bio, "bio", 4)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                    self.firstName = try reader.read(\Self.firstName, "firstName", 1)
                    self.lastName = try reader.read(\Self.lastName, "lastName", 2)
                    self.email = try reader.read(\Self.email, "email", 3)
                    self.bio = try reader.read(\Self.bio, "bio", 4)
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    if Relata._relataNames(keyPath, \Self.firstName) {
                        return "firstName"
                    }
                    if Relata._relataNames(keyPath, \Self.lastName) {
                        return "lastName"
                    }
                    if Relata._relataNames(keyPath, \Self.email) {
                        return "email"
                    }
                    if Relata._relataNames(keyPath, \Self.bio) {
                        return "bio"
                    }
                    return nil
                }
            }

            extension User: Relata.EntityModelProtocol {
                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<User>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                }

                static var patch: Relata.MergeStrategy<User> {
                    Relata.MergeStrategy<User>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                static var _relataIndexes: [Relata.IndexDeclaration<User>] {
                    [
                        .sorted(\.lastName, \.firstName),
                        .hashed(\.email),
                        .fullText(\.bio)
                    ]
                }

                enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id, firstName, lastName, email, bio
                }

                func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                    try container._relataEncode(self.firstName, forKey: .firstName)
                    try container._relataEncode(self.lastName, forKey: .lastName)
                    try container._relataEncode(self.email, forKey: .email)
                    try container._relataEncode(self.bio, forKey: .bio)
                }

                init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                    self.firstName = try container._relataDecode(forKey: .firstName)
                    self.lastName = try container._relataDecode(forKey: .lastName)
                    self.email = try container._relataDecode(forKey: .email)
                    self.bio = try container._relataDecode(forKey: .bio)
                }
            }
            """#
        }
    }

    @Test("Public structs get public members; an explicit init suppresses the memberwise one")
    func publicAndExplicitInit() {
        assertMacro {
            """
            @EntityModel
            public struct Tag {
                public let id: Int
                public init(id: Int) { self.id = id }
            }
            """
        } expansion: {
            #"""
            public struct Tag {
                public let id: Int
                public init(id: Int) { self.id = id }

                public static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                }

                public init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                }

                public static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    return nil
                }
            }

            extension Tag: Relata.EntityModelProtocol {
                public func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Tag>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try self.didSave(to: &context)
                }

                public func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                public mutating func normalize() {
                }

                public static var patch: Relata.MergeStrategy<Tag> {
                    Relata.MergeStrategy<Tag>()
                }

                public static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                }

                public static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    return nil
                }

                public static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    return nil
                }

                public static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                public enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id
                }

                public func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                }

                public init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                }
            }
            """#
        }
    }

    @Test("A generic struct is named Self in its conformance; a computed id is accepted; a relation's initial value is the initializer's default")
    func genericComputedID() {
        assertMacro {
            """
            @EntityModel
            struct Box<T: Codable & Sendable>: Codable {
                var kind: String
                var id: String { kind }
                var value: T

                @Relationship
                var owner: User? = .relation(User(id: "1"))
            }
            """
        } expansion: {
            #"""
            struct Box<T: Codable & Sendable>: Codable {
                var kind: String
                var id: String { kind }
                var value: T

                @Relationship
                var owner: User? = .relation(User(id: "1"))

                @_documentation(visibility: private) typealias __RelataTarget_owner = User

                init(
                    kind: String,
                    value: T,
                    owner: Relata.Relation<User, Relata.Relations.OneWay, Relata.Relations.ToOne, Relata.Relations.Optional> = .relation(User(id: "1"))
                ) {
                    self.kind = kind
                    self.value = value
                    self._owner = Relata.Relationship(relation: owner)
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.kind, "kind", 0)
                    try writer.write(entity.value, "value", 1)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.kind = try reader.read(\Self.kind, "kind", 0)
                    self.value = try reader.read(\Self.value, "value", 1)
                    self._owner = Relata.Relationship(relation: .none)
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.kind) {
                        return "kind"
                    }
                    if Relata._relataNames(keyPath, \Self.value) {
                        return "value"
                    }
                    return nil
                }
            }

            extension Box: Relata.EntityModelProtocol {
                static var __relataKey_owner: Relata._AnyRelationKey {
                    Relata._AnyRelationKey(ordinal: 0, name: "owner", toMany: false)
                }

                static var __relata_owner: Relata.RelationDescriptor<Self, Self.__RelataTarget_owner> {
                    Relata.RelationDescriptor(
                        key: Self.__relataKey_owner,
                        inverse: nil,
                        deleteRule: .nullify,
                        isRequired: false
                    )
                }

                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Self>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try context._saveRelation(self.$owner, of: self.id, Self.__relata_owner)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                    self.$owner = .none
                }

                static var patch: Relata.MergeStrategy<Self> {
                    Relata.MergeStrategy<Self>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                    try visitor.visit(Self.__relata_owner, \Self.$owner, storage: \Self._owner)
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    if keyPath == \Self.$owner {
                        return Self.__relataKey_owner
                    }
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    if keyPath == \Self.$owner {
                        return \Self._owner
                    }
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }
            }
            """#
        }
    }

    @Test("Diagnostics: not a struct, no id, bad relation types, bare relationship")
    func diagnostics() {
        assertMacro {
            """
            @EntityModel
            class Box {
                let id: String
            }
            """
        } diagnostics: {
            """
            @EntityModel
            ┬───────────
            ╰─ 🛑 @EntityModel can only be applied to a struct
            class Box {
                let id: String
            }
            """
        }
        assertMacro {
            """
            @EntityModel
            struct NoID {
                let name: String
            }
            """
        } diagnostics: {
            """
            @EntityModel
            struct NoID {
                   ┬───
                   ╰─ 🛑 @EntityModel requires a property 'id' (stored or computed)
                let name: String
            }
            """
        }
        assertMacro {
            """
            @EntityModel
            struct Bad {
                let id: String
                @Relationship var user: User
                @Relationship let other: User? = nil
            }
            """
        } diagnostics: {
            """
            @EntityModel
            struct Bad {
                let id: String
                @Relationship var user: User
                                  ┬─────────
                                  ╰─ 🛑 @Relationship property must have type 'Entity?' (to-one) or '[Entity]?' (to-many)
                @Relationship let other: User? = nil
                                  ┬─────────────────
                                  ╰─ 🛑 @Relationship must be applied to a 'var'
            }
            """
        }
        assertMacro {
            """
            @EntityModel
            struct Bare {
                let id: String
                @Relationship var user: User?
            }
            """
        } diagnostics: {
            """
            @EntityModel
            struct Bare {
                let id: String
                @Relationship var user: User?
                                  ┬──────────
                                  ╰─ 🛑 @Relationship without arguments needs an initial value '= nil' so Swift can infer the relation type
                                     ✏️ add '= nil'
            }
            """
        } fixes: {
            """
            @EntityModel
            struct Bare {
                let id: String
                @Relationship var user: User? = nil
            }
            """
        } expansion: {
            #"""
            struct Bare {
                let id: String
                @Relationship var user: User? = nil

                @_documentation(visibility: private) typealias __RelataTarget_user = User

                init(
                    id: String,
                    user: Relata.Relation<User, Relata.Relations.OneWay, Relata.Relations.ToOne, Relata.Relations.Optional> = .none
                ) {
                    self.id = id
                    self._user = Relata.Relationship(relation: user)
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                    self._user = Relata.Relationship(relation: .none)
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    return nil
                }
            }

            extension Bare: Relata.EntityModelProtocol {
                static var __relataKey_user: Relata._AnyRelationKey {
                    Relata._AnyRelationKey(ordinal: 0, name: "user", toMany: false)
                }

                static var __relata_user: Relata.RelationDescriptor<Bare, Bare.__RelataTarget_user> {
                    Relata.RelationDescriptor(
                        key: Self.__relataKey_user,
                        inverse: nil,
                        deleteRule: .nullify,
                        isRequired: false
                    )
                }

                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Bare>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try context._saveRelation(self.$user, of: self.id, Self.__relata_user)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                    self.$user = .none
                }

                static var patch: Relata.MergeStrategy<Bare> {
                    Relata.MergeStrategy<Bare>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                    try visitor.visit(Self.__relata_user, \Bare.$user, storage: \Bare._user)
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    if keyPath == \Bare.$user {
                        return Self.__relataKey_user
                    }
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    if keyPath == \Bare.$user {
                        return \Bare._user
                    }
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id, user
                }

                func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                    try container.encode(self._user, forKey: .user)
                }

                init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                    self._user = try container._relataDecodeRelationship(forKey: .user)
                }
            }
            """#
        }
    }

    @Test("Arguments the macro reads are checked as syntax: 'unique:' must be a literal, the unlabeled option '.required'")
    func argumentsReadAsSyntax() {
        assertMacro {
            """
            @EntityModel
            struct Movie {
                let id: String
                @Relationship(deleteRule: .nullify, unique: isUnique) var prequel: Movie? = nil
                @Relationship(.requiredish) var sequel: Movie? = nil
            }
            """
        } diagnostics: {
            """
            @EntityModel
            struct Movie {
                let id: String
                @Relationship(deleteRule: .nullify, unique: isUnique) var prequel: Movie? = nil
                                                    ┬───────────────
                                                    ╰─ 🛑 'unique:' must be the literal 'true' or 'false' (@EntityModel reads it at compile time)
                @Relationship(.requiredish) var sequel: Movie? = nil
                              ┬───────────
                              ╰─ 🛑 the unlabeled @Relationship argument must be '.required'
            }
            """
        }
    }

    @Test("Column code: defaults for properties with an initial value, none for a constant, none at all for a type with its own CodingKeys")
    func columns() {
        assertMacro {
            """
            @EntityModel
            struct Note {
                let id: String
                let version = 2
                var seen = false
                var tags: [String] = ["new"]
            }

            @EntityModel
            struct Renamed {
                enum CodingKeys: String, CodingKey { case id = "identifier" }
                let id: String
            }
            """
        } expansion: {
            #"""
            struct Note {
                let id: String
                let version = 2
                var seen = false
                var tags: [String] = ["new"]

                init(
                    id: String,
                    seen: Bool = false,
                    tags: [String] = ["new"]
                ) {
                    self.id = id
                    self.seen = seen
                    self.tags = tags
                }

                static func _relataWriteColumns(_ entity: Self, to writer: inout Relata._SplitColumnWriter) throws {
                    try writer.write(entity.id, "id", 0)
                    try writer.write(entity.seen, "seen", 1)
                    try writer.write(entity.tags, "tags", 2)
                }

                init(_relataColumns reader: inout Relata._SplitColumnReader) throws {
                    self.id = try reader.read(\Self.id, "id", 0)
                    self.seen = try reader.read(\Self.seen, "seen", 1, default: false)
                    self.tags = try reader.read(\Self.tags, "tags", 2, default: ["new"])
                }

                static func _relataColumnName(_ keyPath: PartialKeyPath<Self>) -> String? {
                    if Relata._relataNames(keyPath, \Self.id) {
                        return "id"
                    }
                    if Relata._relataNames(keyPath, \Self.seen) {
                        return "seen"
                    }
                    if Relata._relataNames(keyPath, \Self.tags) {
                        return "tags"
                    }
                    return nil
                }
            }
            struct Renamed {
                enum CodingKeys: String, CodingKey { case id = "identifier" 
            }
                let id: String

                init(
                    id: String
                ) {
                    self.id = id
                }
            }

            extension Note: Relata.EntityModelProtocol {
                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Note>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                }

                static var patch: Relata.MergeStrategy<Note> {
                    Relata.MergeStrategy<Note>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }

                enum _RelataCodingKeys: String, Swift.CodingKey {
                    case id, version, seen, tags
                }

                func encode(to encoder: any Swift.Encoder) throws {
                    var container = encoder.container(keyedBy: _RelataCodingKeys.self)
                    try container._relataEncode(self.id, forKey: .id)
                    try container._relataEncode(self.version, forKey: .version)
                    try container._relataEncode(self.seen, forKey: .seen)
                    try container._relataEncode(self.tags, forKey: .tags)
                }

                init(from decoder: any Swift.Decoder) throws {
                    let container = try decoder.container(keyedBy: _RelataCodingKeys.self)
                    self.id = try container._relataDecode(forKey: .id)
                    self.seen = try container._relataDecode(forKey: .seen)
                    self.tags = try container._relataDecode(forKey: .tags)
                }
            }

            extension Renamed: Relata.EntityModelProtocol {
                func save(to context: inout Relata.Context, options: Relata.MergeStrategy<Renamed>) throws {
                    try self.willSave(to: &context)
                    context._upsert(self, options: options)
                    try self.didSave(to: &context)
                }

                func delete(from context: inout Relata.Context) throws {
                    try context._delete(self)
                }

                mutating func normalize() {
                }

                static var patch: Relata.MergeStrategy<Renamed> {
                    Relata.MergeStrategy<Renamed>()
                }

                static func _relataVisitRelations<V: Relata._RelationVisitor>(_ visitor: inout V) throws {
                }

                static func _relataRelationKey(_ keyPath: Swift.AnyKeyPath) -> Relata._AnyRelationKey? {
                    return nil
                }

                static func _relataStorageKeyPath(_ keyPath: Swift.AnyKeyPath) -> Swift.AnyKeyPath? {
                    return nil
                }

                static var _relataStoreDescriptor: Relata._EntityStoreDescriptor {
                    Relata._EntityStoreDescriptor(Self.self)
                }
            }
            """#
        }
    }
}
