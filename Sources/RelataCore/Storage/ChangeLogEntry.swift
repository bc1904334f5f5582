import Foundation

/// One record of the change log as stored (see ``StorageReader/logEntries(after:)``).
public struct ChangeLogEntry: Sendable, Hashable {
    /// The commit's sequence.
    public var sequence: Int64
    /// Who made the commit; `nil` when the stored value cannot be read.
    public var origin: String?
    /// The ``ChangeLogRecord`` in its binary form (``ChangeLogRecord/encoded()``); `nil` when the
    /// stored value cannot be read.
    public var record: Data?

    /// An entry.
    public init(sequence: Int64, origin: String?, record: Data?) {
        self.sequence = sequence
        self.origin = origin
        self.record = record
    }
}
