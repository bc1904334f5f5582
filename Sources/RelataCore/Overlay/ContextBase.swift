import Foundation
import Synchronization

/// What a context over storage reads what it does not hold from: a backend and the schema that
/// types its rows (see `Context.init(over:)`).

///
/// Each read the context makes is one read transaction of the backend: the context answers as
/// of the newest commit when it first reads a row, and keeps what it read. (A context that keeps
/// one snapshot for all its reads comes with the paged store's readers.) A read that fails —
/// storage unreachable, a row that does not decode — leaves the context without those rows and
/// is kept in ``failure``.
@usableFromInline
package final class ContextBase: Sendable {
    /// The storage read.
    package let backend: any StorageBackend
    /// The types of the rows.
    package let schema: EntitySchema
    private let firstFailure = Mutex<(any Error)?>(nil)

    /// A base reading `backend`, its rows typed through `schema`.
    package init(backend: any StorageBackend, schema: EntitySchema) {
        self.backend = backend
        self.schema = schema
    }

    /// The first read that failed, if any.
    package var failure: (any Error)? { firstFailure.withLock { $0 } }

    /// The reader of the transaction ``reading(_:)`` holds open on this thread, if any.
    @TaskLocal private static var current: ReaderBox?

    /// Runs `body` in a read transaction (the one ``reading(_:)`` holds, if any); a failure is
    /// kept in ``failure`` and gives `nil`.
    @usableFromInline
    func read<T>(_ body: (any StorageReader) throws -> T) -> T? {
        if let probe = Self.probe, probe.base === self {
            probe.missing = true
            return nil
        }
        do {
            if let current = Self.current, current.base === self { return try body(current.reader) }
            return try backend.read(body)
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
            return nil
        }
    }

    /// Runs `body` with one read transaction open for every read it makes of this base (a
    /// resolve reads its levels in one transaction: one state, and no transaction per batch).
    @usableFromInline
    func reading<T>(_ body: () -> T) -> T {
        if let current = Self.current, current.base === self { return body() }
        var result: T?
        do {
            try backend.read { reader in
                Self.$current.withValue(ReaderBox(base: self, reader: reader)) { result = body() }
            }
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
        }
        return result ?? body()
    }

    /// Whether `reads` finds everything it asks for held already: it runs with every read from
    /// this base answered "not read" (nothing is fetched, nothing is noted as held), so a
    /// resolve whose data is all here opens no transaction.
    @usableFromInline
    func holdsEverything(_ reads: () -> Void) -> Bool {
        let probe = ProbeBox(base: self)
        Self.$probe.withValue(probe) { reads() }
        return !probe.missing
    }

    /// Set while ``holdsEverything(_:)`` runs on this thread.
    @TaskLocal private static var probe: ProbeBox?

    private final class ProbeBox: @unchecked Sendable {
        let base: ContextBase
        var missing = false

        init(base: ContextBase) {
            self.base = base
        }
    }

    /// A reader handed to nested reads on the thread that opened it (never shared across threads).
    private final class ReaderBox: @unchecked Sendable {
        let base: ContextBase
        let reader: any StorageReader

        init(base: ContextBase, reader: any StorageReader) {
            self.base = base
            self.reader = reader
        }
    }
}
