import Foundation

/// One record of a store's change log: the rows one commit touched, by key, never their values.
///
/// A backend writes one record per commit, in the same transaction as the commit's rows, and
/// numbers the records in commit order (the *sequence*). A ``Store`` that follows the storage
/// reads the records after the last sequence it applied, then the current rows of the keys they
/// name (``CommittedChanges``), and brings its state up to date from those rows.
public struct ChangeLogRecord: Sendable, Hashable {
    /// Entity rows stored or erased.
    public var entities: [EntityKey] = []
    /// Sources whose to-many link rows (through one relation) were written or removed.
    public var linkSources: [LinkSourceKey] = []
    /// Dynamic relationships made or removed.
    public var dynamicLinks: [DynamicLinkRecord] = []
    /// Targets whose sources changed through a stored side (see ``LinkTargetKey``): the targets
    /// of to-many link rows written or removed, and the old and new targets of to-one links set,
    /// moved or removed. A store that keeps a target's sources reads them again.
    public var linkTargets: [LinkTargetKey] = []

    /// An empty record.
    public init() {}

    /// The keys of the rows `changes` writes or removes.
    public init(touching changes: StoreChanges) {
        entities = changes.upsertedEntities.map { EntityKey(type: $0.type, id: $0.id) } + changes.deletedEntities
        var sources = Set<LinkSourceKey>()
        for record in changes.upsertedLinks { sources.insert(LinkSourceKey(type: record.type, relation: record.relation, source: record.source)) }
        for key in changes.deletedLinks { sources.insert(LinkSourceKey(type: key.type, relation: key.relation, source: key.source)) }
        linkSources = Array(sources)
        dynamicLinks = changes.insertedDynamicLinks + changes.deletedDynamicLinks
        var targets = Set(changes.toOneTargets)
        for record in changes.upsertedLinks { targets.insert(LinkTargetKey(type: record.type, relation: record.relation, target: record.target)) }
        for key in changes.deletedLinks { targets.insert(LinkTargetKey(type: key.type, relation: key.relation, target: key.target)) }
        linkTargets = Array(targets)
    }

    /// Whether the record names no row.
    public var isEmpty: Bool {
        entities.isEmpty && linkSources.isEmpty && dynamicLinks.isEmpty && linkTargets.isEmpty
    }

    /// Adds the keys `other` names.
    public mutating func formUnion(_ other: ChangeLogRecord) {
        entities += other.entities
        linkSources += other.linkSources
        dynamicLinks += other.dynamicLinks
        linkTargets += other.linkTargets
    }
}

extension ChangeLogRecord {
    /// The record in the compact binary form backends store: each string is its UTF-8 length
    /// (varint) then its bytes; entity keys, link sources and link targets are grouped by type
    /// (and relation). Link targets come last, and only when there are any, so records written
    /// before format 7 read as records without them.
    public func encoded() -> Data {
        var writer = LogWriter()
        let byType = Dictionary(grouping: entities, by: \.type)
        writer.count(byType.count)
        for (type, keys) in byType.sorted(by: { $0.key < $1.key }) {
            writer.string(type)
            writer.count(keys.count)
            for key in keys { writer.string(key.id) }
        }
        writer.relationGroups(linkSources, type: \.type, relation: \.relation, key: \.source)
        writer.count(dynamicLinks.count)
        for link in dynamicLinks {
            for field in [link.kind, link.sourceType, link.source, link.targetType, link.target] { writer.string(field) }
        }
        if !linkTargets.isEmpty { writer.relationGroups(linkTargets, type: \.type, relation: \.relation, key: \.target) }
        return Data(writer.bytes)
    }

    /// Reads a record written by ``encoded()``.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/corruptedStore`` when the bytes are
    ///   not such a record.
    public init(decoding data: Data) throws {
        var reader = LogReader(bytes: [UInt8](data))
        self.init()
        for _ in 0..<(try reader.count()) {
            let type = try reader.string()
            for _ in 0..<(try reader.count()) { entities.append(EntityKey(type: type, id: try reader.string())) }
        }
        linkSources = try reader.relationGroups { LinkSourceKey(type: $0, relation: $1, source: $2) }
        for _ in 0..<(try reader.count()) {
            dynamicLinks.append(
                DynamicLinkRecord(
                    kind: try reader.string(), sourceType: try reader.string(), source: try reader.string(),
                    targetType: try reader.string(), target: try reader.string()
                )
            )
        }
        if !reader.isAtEnd { linkTargets = try reader.relationGroups { LinkTargetKey(type: $0, relation: $1, target: $2) } }
        guard reader.isAtEnd else { throw LogReader.damaged }
    }
}

/// Writes the binary form of log records (see ``ChangeLogRecord/encoded()``).
struct LogWriter {
    var bytes: [UInt8] = []

    /// Keys grouped by (type, relation), each group's type and relation once, then its ids.
    mutating func relationGroups<Key>(_ keys: [Key], type: KeyPath<Key, String>, relation: KeyPath<Key, String>, key id: KeyPath<Key, String>) {
        let groups = Dictionary(grouping: keys, by: { [$0[keyPath: type], $0[keyPath: relation]] })
        count(groups.count)
        for (name, keys) in groups.sorted(by: { $0.key.lexicographicallyPrecedes($1.key) }) {
            string(name[0])
            string(name[1])
            count(keys.count)
            for key in keys { string(key[keyPath: id]) }
        }
    }

    mutating func count(_ value: Int) {
        varint(UInt64(value))
    }

    /// `value` in 7-bit groups, least significant first, each but the last with its top bit set.
    mutating func varint(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7f) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func string(_ text: String) {
        var text = text
        text.withUTF8 { utf8 in
            count(utf8.count)
            bytes.append(contentsOf: utf8)
        }
    }
}

/// Reads the binary form of log records (see ``ChangeLogRecord/init(decoding:)``).
struct LogReader {
    static let damaged = RelataError(code: .corruptedStore, entityType: "Store", message: "a change log record is damaged")
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    /// Keys written by ``LogWriter/relationGroups(_:type:relation:key:)``, made by `make(type, relation, id)`.
    mutating func relationGroups<Key>(_ make: (String, String, String) -> Key) throws -> [Key] {
        var keys: [Key] = []
        for _ in 0..<(try count()) {
            let type = try string(), relation = try string()
            for _ in 0..<(try count()) { keys.append(make(type, relation, try string())) }
        }
        return keys
    }

    /// A count of elements: at most one per byte of the record.
    mutating func count() throws -> Int {
        let value = try varint()
        guard value <= UInt64(bytes.count) else { throw Self.damaged }
        return Int(value)
    }

    /// A number written by ``LogWriter/varint(_:)``.
    mutating func varint() throws -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.count, shift < 64 else { throw Self.damaged }
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7f) << shift
            if byte < 0x80 { break }
            shift += 7
        }
        return value
    }

    mutating func string() throws -> String {
        let length = try count()
        guard bytes.count - offset >= length else { throw Self.damaged }
        defer { offset += length }
        return String(decoding: bytes[offset..<offset + length], as: UTF8.self)
    }
}
