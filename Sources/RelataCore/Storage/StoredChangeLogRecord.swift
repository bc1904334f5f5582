import Foundation

/// A change log record as backends store it: a marker, the sequence of the commit it follows,
/// the record (``ChangeLogRecord/encoded()``) and a checksum of all of it.
///
/// The checksum tells a damaged record (zeroed, cut, bytes changed) from a record that touched
/// nothing; the sequence it follows chains the records, so a reader sees a record that is
/// missing from the middle of the log (`ChangeLogCursor`). Either way, a store that cannot
/// tell what a commit touched drops what it cached (counted in ``Store/fullReloads``), never
/// keeps a stale row.
public struct StoredChangeLogRecord: Sendable, Hashable {
    /// The rows the commit touched.
    public var record: ChangeLogRecord
    /// The sequence of the commit this one follows: the newest commit when its write began,
    /// under the write lock (`0` for the first).
    public var previous: Int64

    /// A record following the commit `previous`.
    public init(_ record: ChangeLogRecord, after previous: Int64) {
        self.record = record
        self.previous = previous
    }

    /// The first byte of a stored record.
    static let marker: UInt8 = 0xC7

    /// The bytes to store.
    public func encoded() -> Data {
        var writer = LogWriter(bytes: [Self.marker])
        writer.varint(UInt64(max(0, previous)))
        var bytes = writer.bytes + record.encoded()
        var checksum = Self.checksum(bytes[...]).littleEndian
        withUnsafeBytes(of: &checksum) { bytes += $0 }
        return Data(bytes)
    }

    /// Reads stored bytes.
    ///
    /// - Throws: ``RelataError`` with code ``RelataError/Code/corruptedStore`` when they are not a
    ///   stored record: no marker, a checksum that does not match, a record that does not decode.
    public init(decoding data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.count >= 10, bytes[0] == Self.marker else { throw Self.damaged }
        let body = bytes[..<(bytes.count - 8)]
        var stored: UInt64 = 0
        for (shift, byte) in bytes[(bytes.count - 8)...].enumerated() { stored |= UInt64(byte) << (8 * UInt64(shift)) }
        guard Self.checksum(body) == stored else { throw Self.damaged }
        var reader = LogReader(bytes: Array(body), offset: 1)
        let value = try reader.varint()
        guard value < UInt64(Int64.max) else { throw Self.damaged }
        previous = Int64(value)
        record = try ChangeLogRecord(decoding: Data(body[reader.offset...]))
    }

    static let damaged = RelataError(code: .corruptedStore, entityType: "Store", message: "a change log record is damaged (its checksum does not match)")

    /// FNV-1a, 64 bits: enough to tell damage from data (not a defence against forgery: whoever
    /// can write the file can write any row).
    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x100_0000_01b3
        }
        return hash
    }
}
