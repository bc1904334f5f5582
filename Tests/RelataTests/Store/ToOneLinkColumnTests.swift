import Foundation
@testable import RelataCore
import Testing

@Suite("To-one link column")
struct ToOneLinkColumnTests {
    /// Appends one link as the Store's row writer does.
    static func write(_ link: ToOneLink, to bytes: inout [UInt8]) {
        ToOneLinkColumn.append(
            relation: link.relation, target: link.target,
            inversePosition: link.inversePosition.flatMap(PositionKey.init), to: &bytes
        )
    }

    @Test("Links written into a column read back the same, positions included; no link writes no column")
    func roundTrip() throws {
        let long = String(repeating: "a", count: 20) + "V"  // a key longer than its two packed words
        let links = [
            ToOneLink(relation: "chat", target: "c1", inversePosition: "a1V"),
            ToOneLink(relation: "author", target: "u7", inversePosition: nil),
            ToOneLink(relation: "replyTo", target: "m2", inversePosition: long),
        ]
        let column = try #require(ToOneLinkColumn.encode { bytes in
            for link in links { Self.write(link, to: &bytes) }
            return links.count
        })
        #expect(try ToOneLinkColumn.decode(column) == links)
        #expect(ToOneLinkColumn.encode { _ in 0 } == nil)
    }

    @Test("A source with 200 to-one links (a count of two varint bytes) reads back whole")
    func longCount() throws {
        let links = (0..<200).map { ToOneLink(relation: "r\($0)", target: "t\($0)", inversePosition: nil) }
        let column = try #require(ToOneLinkColumn.encode { bytes in
            for link in links { Self.write(link, to: &bytes) }
            return links.count
        })
        #expect(try ToOneLinkColumn.decode(column) == links)
    }
}
