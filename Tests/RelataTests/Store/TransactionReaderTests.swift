import Foundation
@testable import RelataCore
import Testing

/// A batch of lists read from storage is split into each list's rows: a list is never cut short,
/// merged with another, or given to the wrong source, whatever order storage gives the rows in.
@Suite("Transaction reader: a batch's rows split by list")
struct TransactionReaderTests {
    static func link(_ source: String, _ target: String) -> LinkRecord {
        LinkRecord(type: "Chat", relation: "messages", source: source, target: target, position: target)
    }

    static func key(_ record: LinkRecord) -> LinkSourceKey {
        LinkSourceKey(type: record.type, relation: record.relation, source: record.source)
    }

    static func keys(_ sources: [String]) -> [LinkSourceKey] {
        sources.map { LinkSourceKey(type: "Chat", relation: "messages", source: $0) }
    }

    /// The targets of each group, for comparing.
    static func targets(_ groups: [[LinkRecord]]) -> [[String]] {
        groups.map { $0.map(\.target) }
    }

    @Test("Rows in the order of the keys asked for: each key's run is its list, a key without rows an empty one")
    func inOrder() {
        let rows = [Self.link("a", "1"), Self.link("a", "2"), Self.link("c", "3"), Self.link("d", "4"), Self.link("d", "5")]
        let groups = TransactionReader.grouped(rows, by: Self.keys(["a", "b", "c", "d", "e"]), key: Self.key)
        #expect(Self.targets(groups) == [["1", "2"], [], ["3"], ["4", "5"], []])
    }

    @Test("Rows in another order, or one list's rows apart: each list whole, its rows in the order storage gave them")
    func otherOrder() {
        // c's rows before a's, and b's rows in two runs.
        let rows = [Self.link("c", "3"), Self.link("a", "1"), Self.link("b", "5"), Self.link("a", "2"), Self.link("b", "6")]
        let groups = TransactionReader.grouped(rows, by: Self.keys(["a", "b", "c"]), key: Self.key)
        #expect(Self.targets(groups) == [["1", "2"], ["5", "6"], ["3"]])
        // In order until the last run, which belongs to a key passed already.
        let late = [Self.link("a", "1"), Self.link("b", "2"), Self.link("a", "3")]
        #expect(Self.targets(TransactionReader.grouped(late, by: Self.keys(["a", "b"]), key: Self.key)) == [["1", "3"], ["2"]])
    }

    @Test("Keys of another relation or type with the same source are other lists")
    func keysDifferByRelation() {
        let other = LinkRecord(type: "Chat", relation: "users", source: "a", target: "u", position: nil)
        let rows = [Self.link("a", "1"), other]
        let keys = Self.keys(["a"]) + [LinkSourceKey(type: "Chat", relation: "users", source: "a")]
        #expect(Self.targets(TransactionReader.grouped(rows, by: keys, key: Self.key)) == [["1"], ["u"]])
        #expect(Self.targets(TransactionReader.grouped([other, Self.link("a", "1")], by: keys, key: Self.key)) == [["1"], ["u"]])
    }
}
