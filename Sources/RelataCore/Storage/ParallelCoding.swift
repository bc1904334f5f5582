import Dispatch
import Foundation

/// Encodes or decodes many entity payloads on every core: payload coding is a large part of the
/// cost of a large Store write and of opening a store.
@usableFromInline
enum ParallelCoding {
    /// Below this many values, one thread does it all.
    static let threshold = 512

    /// `transform` applied to every element, in order, spread over the cores in chunks.
    ///
    /// - Throws: The first error `transform` throws.
    static func map<Element: Sendable, Result: Sendable>(
        _ elements: [Element], _ transform: @Sendable (Element) throws -> Result
    ) throws -> [Result] {
        try map(elements, worker: {}) { _, element in try transform(element) }
    }

    /// `transform` applied to every element, in order, spread over the cores in chunks; each chunk
    /// makes one `Worker` (an encoder, a decoder) and reuses it for all its elements. `serially`:
    /// on this thread only (`transform` reads a context over storage, which faults rows in).
    ///
    /// - Throws: The first error `transform` throws.
    @usableFromInline
    static func map<Element: Sendable, Worker, Result: Sendable>(
        _ elements: [Element], serially: Bool = false, worker makeWorker: @Sendable () -> Worker,
        _ transform: @Sendable (Worker, Element) throws -> Result
    ) throws -> [Result] {
        if serially || elements.count < threshold {
            let worker = makeWorker()
            return try elements.map { try transform(worker, $0) }
        }
        let chunks = min(ProcessInfo.processInfo.activeProcessorCount * 4, elements.count / 64)
        let chunkSize = (elements.count + chunks - 1) / chunks
        let results = Results<Result>(count: elements.count)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (chunk * chunkSize)..<min((chunk + 1) * chunkSize, elements.count)
            let worker = makeWorker()
            for index in range {
                do {
                    results.set(index, try transform(worker, elements[index]))
                } catch {
                    results.fail(error)
                    return
                }
            }
        }
        return try results.values()
    }

    /// Runs each of `jobs` (a few large ones) on the cores at once and returns their results in
    /// order. The caller waits: call it off Swift's cooperative pool (the store's writer queue).
    ///
    /// - Parameter sizes: The work of each job: the largest start first, so the threads, each
    ///   taking the next job when it is free, end close together (a large job started last would
    ///   leave the other cores idle while it runs).
    static func each<Result: Sendable>(_ jobs: [@Sendable () -> Result], sizes: [Int]) -> [Result] {
        guard jobs.count > 1 else { return jobs.map { $0() } }
        let order = jobs.indices.sorted { sizes[$0] > sizes[$1] }
        let results = Results<Result>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { results.set(order[$0], jobs[order[$0]]()) }
        return results.filled()
    }

    /// Slots filled from several threads, each slot by one thread only. The slots are raw memory
    /// (one allocation): a Swift array property mutated from several threads at once would be an
    /// exclusivity violation even when the elements differ.
    private final class Results<Value>: @unchecked Sendable {
        private let slots: UnsafeMutablePointer<Value?>
        private let count: Int
        private var error: (any Error)?
        private let lock = NSLock()

        init(count: Int) {
            self.count = count
            slots = .allocate(capacity: count)
            slots.initialize(repeating: nil, count: count)
        }

        deinit {
            slots.deinitialize(count: count)
            slots.deallocate()
        }

        func set(_ index: Int, _ value: Value) {
            slots[index] = value
        }

        func fail(_ error: any Error) {
            lock.withLock { if self.error == nil { self.error = error } }
        }

        /// The values, when every slot is set and no job fails.
        func filled() -> [Value] {
            (0..<count).map { slots[$0]! }
        }

        func values() throws -> [Value] {
            if let error = lock.withLock({ self.error }) { throw error }
            return (0..<count).map { slots[$0]! }
        }
    }
}
