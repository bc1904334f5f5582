import Foundation
import Relata
import Synchronization

/// The behaviour every `StorageBackend` must have, checked through Relata's public API only —
/// like fluent-kit's `FluentBenchmark`, for the authors of backends.
///
/// Run it from your backend's tests, with a function that makes a new, empty storage:
///
/// ```swift
/// @Test func conformance() async {
///     let results = await StoreConformance.run { 
///         let path = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString).path
///         return { try MyBackend(path: path) }      // each call opens the same storage again
///     }
///     for result in results { #expect(result.passed, "\(result)") }
/// }
/// ```
///
/// Each check gets a storage of its own and opens it as often as it needs (a `Store` over a
/// backend from the storage's function, closed before the next is opened). The checks cover
/// entities and both sides of links, ordered positions, cascade / deny / co-owner erasure,
/// dynamic relationships, unique relations, counts, reopening, rollback of a failed write (the
/// closure's or the backend's), concurrent writers, an additive schema change, the upgrade of
/// rows written by older versions, and bad rows. A check that does not finish within the time
/// limit (a lost write waited for, a deadlock) fails; the run never hangs.
public enum StoreConformance {
    /// Opens a backend on one storage. Called again, after the store over the previous backend
    /// was closed, it must open the same storage: what was written is there.
    public typealias Storage = @Sendable () throws -> any StorageBackend

    /// The outcome of one check.
    public struct Result: Sendable, CustomStringConvertible {
        /// What the check checks.
        public let name: String
        /// Why it failed, or `nil` when it passed.
        public let failure: String?
        /// How long it took.
        public let duration: Duration

        /// Whether the backend behaved.
        public var passed: Bool { failure == nil }

        /// `✔ name` or `✘ name: why`.
        public var description: String {
            failure.map { "✘ \(name): \($0)" } ?? "✔ \(name)"
        }
    }

    /// The names of the checks, in the order ``run(timeLimit:makeStorage:)`` runs them.
    public static var checkNames: [String] {
        checks.map(\.name)
    }

    /// Runs every check, each on a new storage from `makeStorage`.
    ///
    /// - Parameters:
    ///   - timeLimit: How long one check may take before it fails.
    ///   - makeStorage: Makes a new, empty storage and returns the function that opens it.
    /// - Returns: One result per check, in order.
    public static func run(
        timeLimit: Duration = .seconds(120), makeStorage: @escaping @Sendable () throws -> Storage
    ) async -> [Result] {
        var results: [Result] = []
        for check in checks {
            let start = ContinuousClock.now
            let failure = await withTimeLimit(timeLimit) {
                try await check.run(try makeStorage())
            }
            results.append(Result(name: check.name, failure: failure, duration: ContinuousClock.now - start))
        }
        return results
    }

    /// Runs `body`; returns why it failed (it threw, or did not finish within `limit`).
    static func withTimeLimit(_ limit: Duration, _ body: @escaping @Sendable () async throws -> Void) async -> String? {
        await withCheckedContinuation { (continuation: CheckedContinuation<String?, Never>) in
            let once = Mutex<CheckedContinuation<String?, Never>?>(continuation)
            let finish = { @Sendable (outcome: String?) in
                once.withLock { $0.take() }?.resume(returning: outcome)
            }
            let work = Task {
                do {
                    try await body()
                    finish(nil)
                } catch {
                    finish("\(error)")
                }
            }
            Task {
                try? await Task.sleep(for: limit)
                work.cancel()
                finish("did not finish within \(limit): a write was lost or never ended")
            }
        }
    }
}

/// A check that failed, with what it expected.
struct ConformanceFailure: Error, CustomStringConvertible {
    let description: String
}

/// Fails the check with `message` unless `condition` holds.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    guard condition else { throw ConformanceFailure(description: message()) }
}

/// One behaviour, checked on one storage.
struct Check: Sendable {
    let name: String
    let run: @Sendable (StoreConformance.Storage) async throws -> Void
}
