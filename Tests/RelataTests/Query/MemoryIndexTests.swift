import Foundation
import Relata
@testable import RelataCore
import Testing

/// The indexes a context keeps in memory for `@Index`, `@HashIndex` and `@Unique`: kept by every
/// save and erase, copy-on-write with the context, checked by `checkInvariants()`, and answering
/// a query's predicates as plain Swift does.
@Suite("Indexes in memory: kept by saves and erasures, answering predicates")
struct MemoryIndexTests {
    @EntityModel
    struct Reading: Codable, Equatable {
        @Index<Self>(\.level, \.id) private var levelIndex
        @HashIndex<Self>(\.station) private var stationIndex
        @Unique<Self>(\.serial, collisions: .upsert) private var uniqueSerial

        let id: String
        var level: Int
        var station: String
        var serial: Int
    }

    static func random(_ i: Int, _ random: inout SeededGenerator) -> Reading {
        Reading(
            id: "r\(i)", level: Int.random(in: 0..<40, using: &random), station: ["a", "b", "c", "d"].randomElement(using: &random)!,
            serial: Int.random(in: 0..<300, using: &random)
        )
    }

    /// What the queries answer against plain Swift over the context's entities.
    static func checkQueries(_ context: Context, _ random: inout SeededGenerator) throws {
        try context.checkInvariants()
        let all = Reading.query(in: context).resolve()
        let level = Int.random(in: -1...41, using: &random)
        let station = ["a", "b", "c", "d", "e"].randomElement(using: &random)!
        func ids(_ list: QueryList<Reading>) -> [String] { list.sorted(by: \.id).resolve().map(\.id) }
        func expected(_ keep: (Reading) -> Bool) -> [String] { all.filter(keep).map(\.id).sorted() }
        #expect(ids(Reading.query(in: context).filter(\.level == level)) == expected { $0.level == level })
        #expect(ids(Reading.query(in: context).filter(\.level < level)) == expected { $0.level < level })
        #expect(ids(Reading.query(in: context).filter(\.level >= level)) == expected { $0.level >= level })
        #expect(ids(Reading.query(in: context).filter(\.level > level).and(\.station == station)) == expected { $0.level > level && $0.station == station })
        #expect(ids(Reading.query(in: context).filter(\.station == station)) == expected { $0.station == station })
        // Answered by an index exactly (the entities are not tested again) or not: the same.
        let other = ["a", "b", "c", "d"].randomElement(using: &random)!
        #expect(ids(Reading.query(in: context).filter(\.station == station).and(\.station == other)) == expected { $0.station == station && station == other })
        #expect(ids(Reading.query(in: context).filter(\.station == station).and(\.level == level)) == expected { $0.station == station && $0.level == level })
        #expect(ids(Reading.query(in: context).filter(\.level >= level - 5).and(\.level <= level)) == expected { (level - 5...level).contains($0.level) })
        #expect(Reading.query(in: context).filter(\.serial == level * 7).resolve().map(\.id) == expected { $0.serial == level * 7 })
        #expect(Reading.query(in: context).filter(\.station == station).resolve().map(\.id) == all.filter { $0.station == station }.map(\.id), "in the table's order")
        #expect(Reading.query(in: context).filter(\.level < level).resolveCount() == expected { $0.level < level }.count)
        #expect(Reading.query(in: context).filter(\.station == station).resolveCount() == expected { $0.station == station }.count)
        let newest = Reading.query(in: context).filter(\.level <= level).sorted(by: \.level.desc).limit(7, offset: 2).resolve().map(\.level)
        #expect(newest == Array(all.filter { $0.level <= level }.map(\.level).sorted(by: >).dropFirst(2).prefix(7)))
        #expect(Set(all.map(\.serial)).count == all.count, "serials stay unique")
    }

    @Test("Random saves, re-saves, erasures and copies: every index matches its entities and answers as plain Swift")
    func randomOperations() throws {
        var random = SeededGenerator(seed: 21)
        var context = Context()
        var copies: [Context] = []
        for step in 0..<SeededGenerator.rounds(normal: 1_500, long: 20_000) {
            let i = Int.random(in: 0..<400, using: &random)
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<6: try Self.random(i, &random).save(to: &context)
            case 6..<8: try Reading.delete(id: "r\(i)", from: &context)
            case 8: copies.append(context)  // a copy keeps its own indexes
            default:
                if var copy = copies.popLast() {
                    try Self.random(i, &random).save(to: &copy)
                    try Self.checkQueries(copy, &random)
                }
            }
            if step % 50 == 0 { try Self.checkQueries(context, &random) }
        }
        try Self.checkQueries(context, &random)
        for copy in copies { try Self.checkQueries(copy, &random) }
    }

    @Test("A context loaded whole from storage has its indexes, made once after the load")
    func loadedContext() async throws {
        let harness = try StoreHarness(.sqlite)
        defer { harness.remove() }
        let schema = EntitySchema(Reading.self)
        let store = try await BackendKind.sqlite.open(harness.backend(), schema: schema)
        var random = SeededGenerator(seed: 8)
        let readings = (0..<500).map { Self.random($0, &random) }
        try await store.write { context in for reading in readings { try reading.save(to: &context) } }
        try await store.close()
        var loaded = try loadedWhole(harness.backend(), schema: schema)
        #expect(loaded.table(Reading.self)?.memoryIndexes?.count == 3, "level, station and serial")
        try Self.checkQueries(loaded, &random)
        try Self.random(3, &random).save(to: &loaded)
        try Self.checkQueries(loaded, &random)
    }

    @Test("An index that differs from its entities fails checkInvariants")
    func staleIndexIsReported() throws {
        var context = Context()
        var random = SeededGenerator(seed: 5)
        for i in 0..<200 { try Self.random(i, &random).save(to: &context) }
        try context.checkInvariants()
        let table = try #require(context.table(Reading.self))
        let sorted = try #require(table.memoryIndexes?.first as? SortedMemoryIndex<Reading, Int>)
        sorted.recentValues.append(99)
        sorted.recentIDs.append("r0")
        let error = try #require(throws: RelataError.self) { try context.checkInvariants() }
        #expect(error.code == .invalidIndex && error.entityType.hasSuffix("Reading"))
    }
}
