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
    package let backend: any StorageBackend
    package let schema: EntitySchema
    private let firstFailure = Mutex<(any Error)?>(nil)

    /// A base reading `backend`, its rows typed through `schema`.
    package init(backend: any StorageBackend, schema: EntitySchema) {
        self.backend = backend
        self.schema = schema
    }

    /// The first read that failed, if any.
    package var failure: (any Error)? { firstFailure.withLock { $0 } }

    /// Runs `body` in a read transaction; a failure is kept in ``failure`` and gives `nil`.
    @usableFromInline
    func read<T>(_ body: (any StorageReader) throws -> T) -> T? {
        do {
            return try backend.read(body)
        } catch {
            firstFailure.withLock { if $0 == nil { $0 = error } }
            return nil
        }
    }
}
