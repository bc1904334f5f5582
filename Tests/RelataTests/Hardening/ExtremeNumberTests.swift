import ChatExample
import Foundation
import GRDB
import Relata
import Testing

/// Numbers at the ends of `Int64` in a crafted file — a log sequence of `Int64.min`, a catalog
/// number of `Int64.max` — give a typed error or a correct store at open, write and catch-up;
/// they never stop the process with an arithmetic overflow.
@Suite("Hardening: extreme numbers in a store file", .serialized, .timeLimit(.minutes(3)))
struct ExtremeNumberTests {
    typealias Fuzz = DamagedFileFuzzTests

    @Test("Each extreme number, alone in a real store file: open, write, refresh and check end in a typed error or success", arguments: Fuzz.extremeNumbers.indices)
    func extremeNumber(index: Int) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("relata-extreme-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("store.sqlite").path
        try await Fuzz.makeStore(at: path)
        let queue = try DatabaseQueue(path: path)
        let tables = try await queue.read(Fuzz.tables)
        try await queue.write { db in
            try Fuzz.loosen(db, tables)
            for statement in Fuzz.extremeNumbers[index] { try db.execute(sql: statement) }
        }
        try queue.close()
        let outcome = await Fuzz.exercise(path)
        #expect(outcome != "untyped", "\(Fuzz.extremeNumbers[index]): \(outcome)")
    }
}
