import Foundation

/// The error Relata throws: a stable ``code``, and the entity type, id and relation involved.
///
/// ```swift
/// do {
///     let user = try context.find(User.self, id: "42")
/// } catch let error as RelataError where error.code == .entityNotFound {
///     print(error)   // entityNotFound: entity User with id "42" not found [entity User, id 42]
/// }
/// ```
///
/// `print(error)`, `"\(error)"` and `error.localizedDescription` all say the code, the message,
/// the entity type, id and relation, and the underlying error. Row values are never included.
///
/// New codes may be added without breaking clients: ``Code`` is a struct of static values.
public struct RelataError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// A stable identifier of the kind of error.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The raw identifier, stable across versions.
        public let rawValue: String

        /// A code with this raw identifier.
        public init(_ rawValue: String) { self.rawValue = rawValue }

        /// The raw identifier.
        public var description: String { rawValue }

        /// No entity of that type and id is stored.
        public static let entityNotFound = Code("entityNotFound")
        /// A link is inconsistent with its relation (reported by `Context.checkInvariants()`).
        public static let invalidRelation = Code("invalidRelation")
        /// An index is outside the targets of a to-many relation.
        public static let indexOutOfRange = Code("indexOutOfRange")
        /// An entity is not linked through the relation an operation needs it in.
        public static let notLinked = Code("notLinked")
        /// Encoded data names an entity type or relation the schema does not know.
        public static let unknownEntityType = Code("unknownEntityType")
        /// A stored entity or link cannot be decoded with the current model.
        public static let undecodableRecord = Code("undecodableRecord")
        /// The storage failed to read or write; the write did not happen.
        public static let storageFailed = Code("storageFailed")
        /// The file is not a Relata store (it was not modified).
        public static let notAStore = Code("notAStore")
        /// The store's file is damaged (it was not modified).
        public static let corruptedStore = Code("corruptedStore")
        /// The store was closed.
        public static let storeClosed = Code("storeClosed")
        /// Another writer held the storage's write lock longer than the busy timeout allows.
        public static let storeBusy = Code("storeBusy")
        /// An entity cannot be erased: a relation with the `.deny` rule still links it.
        public static let deleteDenied = Code("deleteDenied")
        /// A target of a unique relation is already linked by another source, or another entity
        /// holds the values of a ``Unique`` declaration whose resolver refuses (`.throw`).
        public static let uniqueViolation = Code("uniqueViolation")
        /// An index a context keeps in memory does not match its entities (found by
        /// ``Context/checkInvariants()``).
        public static let invalidIndex = Code("invalidIndex")
        /// Position keys asked for between bounds that are out of order (see `PositionKey`).
        public static let invalidPosition = Code("invalidPosition")
        /// A setting is out of range or malformed (a log retention that keeps nothing, a URL
        /// parameter that is not understood, two entity types under one stored name); nothing
        /// was opened or written.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// An id cannot be stored: it holds U+0000 (NUL), which SQLite's C strings cut and
        /// PostgreSQL refuses, or it is longer than 1,024 UTF-8 bytes (PostgreSQL's index
        /// entries cannot hold longer keys). Every backend refuses both alike; nothing was written.
        public static let invalidID = Code("invalidID")
        /// A context taken from a ``Store`` was asked for rows it had not read yet, and commits
        /// made after its snapshot changed them: it cannot answer as of its snapshot, and never
        /// answers with rows of a later one. Take a new context (``Store/context``, or read in
        /// ``Store/read(_:)-7uh7i``) to see the newer state.
        public static let staleSnapshot = Code("staleSnapshot")
        /// A synchronous ``Store/write(_:)-4nokt`` was called from inside a write of the same
        /// store (its closure runs on the store's writer queue), where it would wait for itself
        /// forever. Nothing was written; make the change in the enclosing write's context.
        public static let reentrantWrite = Code("reentrantWrite")
    }

    /// What went wrong.
    public let code: Code
    /// The name of the entity type involved.
    public let entityType: String
    /// The id of the entity involved, as text, if one is.
    public let id: String?
    /// The name of the relation involved, if one is.
    public let relation: String?
    /// A human-readable explanation.
    public let message: String
    /// The error that caused this one, if any.
    public let underlying: (any Error & Sendable)?

    /// An error with every field given.
    public init(
        code: Code, entityType: String, id: String? = nil, relation: String? = nil,
        message: String, underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.entityType = entityType
        self.id = id
        self.relation = relation
        self.message = message
        self.underlying = underlying
    }

    /// The code, the message, the entity type, id and relation, and the underlying error.
    public var description: String {
        var text = "\(code): \(message) [entity \(entityType)"
        if let id { text += ", id \(id)" }
        if let relation { text += ", relation \(relation)" }
        text += "]"
        if let underlying { text += " (\(underlying))" }
        return text
    }

    /// The same text as ``description``, for `localizedDescription`.
    public var errorDescription: String? {
        description
    }

    static func entityNotFound<Entity>(_: Entity.Type, id: some Sendable) -> RelataError {
        RelataError(
            code: .entityNotFound, entityType: String(describing: Entity.self), id: "\(id)",
            message: "entity \(Entity.self) with id \"\(id)\" not found"
        )
    }

    static func indexOutOfRange<Entity>(
        _: Entity.Type, id: some Sendable, relation: String, index: Int, count: Int
    ) -> RelataError {
        RelataError(
            code: .indexOutOfRange, entityType: String(describing: Entity.self), id: "\(id)", relation: relation,
            message: "index \(index) is outside 0...\(count) in \(Entity.self).\(relation) of \"\(id)\""
        )
    }

    static func notLinked<Entity>(
        _: Entity.Type, id: some Sendable, relation: String, target: some Sendable
    ) -> RelataError {
        RelataError(
            code: .notLinked, entityType: String(describing: Entity.self), id: "\(id)", relation: relation,
            message: "\"\(target)\" is not linked by \(Entity.self) \"\(id)\" through \(relation)"
        )
    }
}
