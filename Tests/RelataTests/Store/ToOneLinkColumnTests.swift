import Foundation
@testable import RelataCore
import Testing

/// The to-one link column of SQLite formats 4 to 6, read when such a file is upgraded.
@Suite("To-one link column of format 6")
struct ToOneLinkColumnTests {
    @Test("A column written by format 6 reads back the same links, positions included")
    func decode() throws {
        let links = [
            ToOneLinkRecord(relation: "chat", target: "c1", inversePosition: "a1V"),
            ToOneLinkRecord(relation: "author", target: "u7"),
            ToOneLinkRecord(relation: "replyTo", target: "m2", inversePosition: String(repeating: "a", count: 20) + "V"),
        ]
        #expect(try ToOneLinkColumn.decode(LegacyStoreFile.linkColumn(links)) == links)
    }

    @Test("A source with 200 to-one links (a count of two varint bytes) reads back whole")
    func longCount() throws {
        let links = (0..<200).map { ToOneLinkRecord(relation: "r\($0)", target: "t\($0)") }
        #expect(try ToOneLinkColumn.decode(LegacyStoreFile.linkColumn(links)) == links)
    }

    @Test("A damaged column is refused, never misread")
    func damaged() throws {
        var bytes = [UInt8](LegacyStoreFile.linkColumn([ToOneLinkRecord(relation: "chat", target: "c1")]))
        #expect(throws: (any Error).self) { try ToOneLinkColumn.decode(Data(bytes.dropLast())) }
        bytes[0] = 2
        #expect(throws: (any Error).self) { try ToOneLinkColumn.decode(Data(bytes)) }
    }
}
