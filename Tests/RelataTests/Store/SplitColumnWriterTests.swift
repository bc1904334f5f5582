import Foundation
import Relata
@testable import RelataCore
import Testing

/// A write makes an entity's row of typed columns straight from the generated code: the same
/// columns and rest as splitting the entity's whole payload, and the entity reads back.
@Suite("Rows written as columns")
struct SplitColumnWriterTests {
    /// Values a column cannot hold exactly, beside ones it can.
    @EntityModel
    struct Odd: Codable {
        let id: String
        var nan: Double
        var withNul: String
        var nestedData: [Data]
        var nestedInfinity: [Double]
        var words: [String: [Int]]
        var plain: Int
        var none: Int?
    }

    static let odd = Odd(id: "o", nan: .nan, withNul: "a\u{0}b", nestedData: [Data([1, 2])], nestedInfinity: [.infinity], words: ["a": [1]], plain: 7, none: nil)

    static func splitBothWays<Entity: EntityModelProtocol & Encodable>(_ entity: Entity) throws -> (written: SplitPayload, fromPayload: SplitPayload) {
        (try PayloadCoding.splitEntity(entity), try SplitPayload(splitting: PayloadCoding.encode(entity, with: PayloadEncoder())))
    }

    @Test("The columns and rest a write makes are those splitting the payload Codable writes")
    func sameAsSplittingThePayload() throws {
        for note in ColumnCodingTests.notes {
            let (written, fromPayload) = try Self.splitBothWays(note)
            #expect(written == fromPayload)
            #expect(!written.properties.isEmpty)
        }
        let (written, fromPayload) = try Self.splitBothWays(Self.odd)
        #expect(written == fromPayload)
        #expect(Set(written.properties.map(\.name)) == ["id", "words", "plain"], "NaN, NUL, nested Data and infinities stay in the payload")
        let renamed = try Self.splitBothWays(ColumnCodingTests.Renamed(id: "r", name: "Ann"))
        #expect(renamed.written == renamed.fromPayload, "a type that codes itself is split from its payload")
    }

    @Test("The row a write makes reads back as the entity, from its columns and from its payload")
    func readsBack() throws {
        let record = try PayloadCoding.record(of: Self.odd, type: "Odd", id: "o", toOne: [], updatedAt: nil)
        let back = try PayloadCoding.decodeEntity(Odd.self, from: record, with: .init())
        let again = try PayloadCoding.decodeEntity(Odd.self, from: record.payload, with: .init())
        for value in [back, again] {
            #expect(value.nan.isNaN && value.withNul == "a\u{0}b" && value.nestedData == [Data([1, 2])])
            #expect(value.nestedInfinity == [.infinity] && value.words == ["a": [1]] && value.plain == 7 && value.none == nil)
        }
        let linksOnly = try PayloadCoding.record(of: Odd?.none, type: "Odd", id: "o", toOne: [], updatedAt: nil)
        #expect(!linksOnly.hasEntity && linksOnly.payload.isEmpty)
    }
}
