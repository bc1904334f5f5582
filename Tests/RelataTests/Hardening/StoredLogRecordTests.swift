import Foundation
import Relata
import RelataCore
import Testing

/// A stored change log record carries the commit it follows and a checksum: any damage to its
/// bytes is an error, never a record that touched nothing.
@Suite("Hardening: stored change log records")
struct StoredLogRecordTests {
    static var record: ChangeLogRecord {
        var record = ChangeLogRecord()
        // In the order the binary form keeps (grouped by type, types in order).
        record.entities = [EntityKey(type: "Chat", id: "c"), EntityKey(type: "Message", id: "m1")]
        record.linkSources = [LinkSourceKey(type: "Chat", relation: "messages", source: "c")]
        return record
    }

    @Test("Round trip: the record and the commit it follows", arguments: [0, 1, 127, 128, Int64.max - 1])
    func roundTrip(previous: Int64) throws {
        let stored = StoredChangeLogRecord(Self.record, after: previous)
        let decoded = try StoredChangeLogRecord(decoding: stored.encoded())
        #expect(decoded == stored)
    }

    @Test("Every changed byte, a cut, zeroes, the empty record and the bare body are refused")
    func damageIsRefused() throws {
        let bytes = StoredChangeLogRecord(Self.record, after: 41).encoded()
        for index in bytes.indices {
            var damaged = bytes
            damaged[index] ^= 0x5A
            #expect(throws: RelataError.self, "byte \(index) changed") { try StoredChangeLogRecord(decoding: damaged) }
        }
        for length in 0..<bytes.count {
            #expect(throws: RelataError.self, "cut to \(length)") { try StoredChangeLogRecord(decoding: bytes.prefix(length)) }
        }
        #expect(throws: RelataError.self) { try StoredChangeLogRecord(decoding: Data(count: bytes.count)) }
        #expect(throws: RelataError.self) { try StoredChangeLogRecord(decoding: ChangeLogRecord().encoded()) }
        #expect(throws: RelataError.self) { try StoredChangeLogRecord(decoding: Self.record.encoded()) }
    }
}
