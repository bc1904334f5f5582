import Foundation
import Relata
@testable import RelataCore
import Testing

/// A row read from a table of typed columns decodes straight from its columns, to the entity
/// its whole payload holds, with the same errors.
@Suite("Rows decoded from their columns")
struct SplitColumnReaderTests {
    typealias Note = ColumnCodingTests.Note
    typealias Renamed = ColumnCodingTests.Renamed

    /// The record storage hands back for `entity` written as a row of typed columns, its columns
    /// edited by `edit`.
    static func record<Entity: EntityModelProtocol>(_ entity: Entity, edit: (inout [PropertyEntry]) throws -> Void = { _ in }) throws -> EntityRecord {
        let split = try PayloadCoding.splitEntity(entity)
        var columns = split.properties
        try edit(&columns)
        return try EntityRecord(type: "Note", id: "n", rest: split.rest, columns: columns, toOne: [], updatedAt: nil)
    }

    static func decode<Entity: EntityModelProtocol>(_ type: Entity.Type, _ record: EntityRecord) throws -> Entity {
        try PayloadCoding.decodeEntity(type, from: record, with: .init())
    }

    @Test("Every kind of property comes back from its column: scalars, raw-value enums, optionals, nested values as JSON")
    func everyKind() throws {
        for note in ColumnCodingTests.notes {
            let record = try Self.record(note)
            #expect(!record.columns.isEmpty)
            #expect(try Self.decode(Note.self, record) == note)
            #expect(try PayloadCoding.decodeEntity(Note.self, from: record.payload, with: .init()) == note, "its payload put back together")
            #expect(record == EntityRecord(type: "Note", id: "n", payload: record.payload), "one row, however it is kept")
        }
        let stamped = try Self.record(ColumnCodingTests.notes[0])
        #expect(stamped.columns.contains { $0.name == "stamp" && $0.value.kind == .json })
    }

    @Test("Columns in another order, JSON a database reprinted, and a column the model dropped read the same")
    func anyOrder() throws {
        let note = ColumnCodingTests.notes[0]
        let record = try Self.record(note) { columns in
            columns.reverse()
            columns.append(PropertyEntry(name: "gone", value: .text("a property the model dropped")))
            for index in columns.indices {
                if case .json(let text) = columns[index].value { columns[index].value = .json(try SplitPayloadTests.reprinted(text)) }
            }
        }
        #expect(try Self.decode(Note.self, record) == note)
    }

    @Test("A property without a column reads its default, nil, or an error naming it")
    func missing() throws {
        let note = ColumnCodingTests.notes[0]
        let withoutOptional = try Self.record(note) { $0.removeAll { $0.name == "seen" || $0.name == "stars" } }
        var expected = note
        expected.seen = false
        expected.stars = nil
        #expect(try Self.decode(Note.self, withoutOptional) == expected)
        let withoutTitle = try Self.record(note) { $0.removeAll { $0.name == "title" } }
        Self.expectUndecodable(withoutTitle, naming: "title")
    }

    @Test("A column of the wrong kind is a decoding error naming the property, never a crash")
    func wrongKind() throws {
        let note = ColumnCodingTests.notes[0]
        func replacing(_ name: String, with value: PropertyValue) throws -> EntityRecord {
            try Self.record(note) { columns in
                let index = try #require(columns.firstIndex { $0.name == name })
                columns[index].value = value
            }
        }
        Self.expectUndecodable(try replacing("kind", with: .text("dreft")), naming: "kind")
        Self.expectUndecodable(try replacing("title", with: .int(3)), naming: "title")
        Self.expectUndecodable(try replacing("stars", with: .int(300)), naming: "stars")
        Self.expectUndecodable(try replacing("stamp", with: .text("not a stamp")), naming: "stamp")
        Self.expectUndecodable(try replacing("title", with: .json("[1]")), naming: "title")
    }

    static func expectUndecodable(_ record: EntityRecord, naming property: String, sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try decode(Note.self, record)
            Issue.record("a row with a bad \(property) decoded", sourceLocation: sourceLocation)
        } catch {
            let error = record.undecodable(error)
            #expect(error.code == .undecodableRecord && error.message.contains(property), "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("Columns that cannot make one payload are refused when the row is read: a damaged JSON column, a payload that is not keyed")
    func damaged() throws {
        let note = ColumnCodingTests.notes[0]
        #expect(throws: DecodingError.self) { try Self.record(note) { $0.append(PropertyEntry(name: "stamp2", value: .json("{"))) } }
        #expect(throws: DecodingError.self) {
            try EntityRecord(type: "Note", id: "n", rest: PayloadEncoder().encode(42), columns: [PropertyEntry(name: "title", value: .text("x"))], toOne: [], updatedAt: nil)
        }
        let linksOnly = try EntityRecord(type: "Note", id: "n", rest: Data(), columns: [PropertyEntry(name: "title", value: .text("x"))], toOne: [], updatedAt: nil)
        #expect(!linksOnly.hasEntity && linksOnly.columns.isEmpty, "a row without an entity has no properties")
    }

    @Test("A type that codes itself decodes whole, its columns put back into its payload")
    func whole() throws {
        let value = Renamed(id: "r", name: "Ann")
        let record = try Self.record(value)
        #expect(!record.columns.isEmpty)
        #expect(try Self.decode(Renamed.self, record) == value)
    }
}
