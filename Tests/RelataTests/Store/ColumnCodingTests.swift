import Foundation
import Relata
@testable import RelataCore
import Testing

/// The column code `@EntityModel` generates, against the `Codable` form earlier versions stored.
@Suite("Generated column coding")
struct ColumnCodingTests {
    @EntityModel
    struct Note: Codable, Equatable {
        enum Kind: String, Codable { case draft, sent }
        struct Stamp: Codable, Equatable { var at: Date; var by: [String] }
        let id: UUID
        var title: String
        var kind: Kind
        var stars: Int8?
        var stamp: Stamp?
        var size: UInt64
        var seen = false
        @Relationship var replies: [Note]? = nil
    }

    /// A type that codes itself: the macro leaves it to `Codable`.
    @EntityModel
    struct Renamed: Codable, Equatable {
        enum CodingKeys: String, CodingKey { case id = "identifier", name = "label" }
        let id: String
        var name: String
    }

    static let notes = [
        Note(id: UUID(), title: "Hi", kind: .sent, stars: 5, stamp: Note.Stamp(at: Date(), by: ["a", "b"]), size: .max, seen: true),
        Note(id: UUID(), title: "", kind: .draft, stars: nil, stamp: nil, size: 0),
    ]

    @Test("The columns written by the generated code are those of the payload Codable wrote, and each reads the other's")
    func sameAsCodable() throws {
        let encoder = PayloadEncoder()
        for note in Self.notes {
            let fromCodable = try PayloadCoding.encode(note, with: encoder)
            let fromColumns = try PayloadCoding.splitEntity(note)
            #expect(fromColumns == (try SplitPayload(splitting: fromCodable)))
            #expect(try PayloadCoding.decodeEntity(Note.self, from: fromCodable, with: .init()) == note)
            let assembled = try SplitPayload.assemble(rest: fromColumns.rest, properties: fromColumns.properties)
            #expect(try PayloadCoding.decode(Note.self, from: assembled, with: .init()) == note)
        }
    }

    @Test("Columns stored in another order (an edited model) are still found by name")
    func anyOrder() throws {
        let note = Self.notes[0]
        var entries: [UInt8] = []
        func entry(_ key: String, _ value: [UInt8]) {
            entries.appendText(key)
            entries += value
        }
        func text(_ text: String) -> [UInt8] { var bytes: [UInt8] = [PayloadFormat.Tag.string.rawValue]; bytes.appendText(text); return bytes }
        var integer: [UInt8] = []
        integer.appendInteger(UInt64.max)
        entry("size", integer)
        entry("kind", text("sent"))
        entry("gone", text("a property the model dropped"))
        entry("title", text("Hi"))
        entry("id", text(note.id.uuidString))
        var payload = PayloadFormat.magic + [PayloadFormat.Tag.keyed.rawValue]
        payload.appendVarint(5)
        payload.appendVarint(UInt64(entries.count))
        payload += entries
        let read = try PayloadCoding.decodeEntity(Note.self, from: Data(payload), with: .init())
        #expect(read == Note(id: note.id, title: "Hi", kind: .sent, stars: nil, stamp: nil, size: .max, seen: false))
    }

    @Test("A stored value of the wrong kind is a decoding error naming the property, never a crash")
    func wrongKind() throws {
        var payload = try PayloadCoding.encode(Self.notes[1], with: PayloadEncoder())
        // "kind" holds "draft": a raw value this enum does not have.
        let range = try #require(payload.range(of: Data("draft".utf8)))
        payload.replaceSubrange(range, with: Data("dreft".utf8))
        let record = EntityRecord(type: "Note", id: "n", payload: payload)
        do {
            _ = try PayloadCoding.decodeEntity(Note.self, from: payload, with: .init())
            Issue.record("a raw value the enum does not have decoded")
        } catch {
            let error = record.undecodable(error)
            #expect(error.code == .undecodableRecord && error.message.contains("kind"), "\(error)")
        }
    }

    @Test("A type with its own CodingKeys is stored through Codable, under its own keys")
    func ownCodingKeys() throws {
        let value = Renamed(id: "r", name: "Ann")
        let split = try PayloadCoding.splitEntity(value)
        #expect(split.properties.map(\.name) == ["identifier", "label"])
        let payload = try SplitPayload.assemble(rest: split.rest, properties: split.properties)
        #expect(try PayloadCoding.decodeEntity(Renamed.self, from: payload, with: .init()) == value)
    }
}
