import Foundation
import GRDB
@testable import RelataSQLite
import Testing

/// `relata_ascii(x)`, the test a sorted page makes of each row's text keys on SQLite: 1 for text
/// whose bytes are all ASCII, 0 for other text and other values, NULL for NULL — at every length
/// and wherever the first byte above 0x7F falls (the function reads eight bytes at a time).
@Suite("SQLite: the relata_ascii function")
struct SQLiteASCIIFunctionTests {
    static func answer(_ value: DatabaseValueConvertible?) throws -> Int? {
        let queue = try DatabaseQueue()
        try queue.inDatabase { try SQLiteASCIIFunction.install(on: $0) }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT relata_ascii(?)", arguments: [value]) }
    }

    @Test("Text of every length up to 24 bytes is ASCII; one byte above 0x7F anywhere in it is not")
    func everyLengthAndPlace() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { try SQLiteASCIIFunction.install(on: $0) }
        func answer(_ text: String) throws -> Int? {
            try queue.read { try Int.fetchOne($0, sql: "SELECT relata_ascii(?)", arguments: [text]) }
        }
        for length in 0...24 {
            let ascii = String(repeating: "a", count: length)
            let whole = try answer(ascii)
            #expect(whole == 1, "\(length) ASCII bytes")
            for place in 0..<length {
                var characters = Array(ascii)
                characters[place] = "é"
                let marked = try answer(String(characters))
                #expect(marked == 0, "é at \(place) of \(length)")
            }
        }
        // The last ASCII byte, and the first above it.
        let last = try answer("x\u{7F}"), first = try answer("x\u{80}")
        #expect(last == 1)
        #expect(first == 0)
    }

    @Test("NULL gives NULL; a number or a blob is not ASCII text")
    func otherValues() throws {
        let null = try Self.answer(nil), number = try Self.answer(42), blob = try Self.answer(Data("abc".utf8))
        #expect(null == nil)
        #expect(number == 0)
        #expect(blob == 0)
    }
}
