import Dispatch

/// A serial executor on a dispatch queue of its own: the jobs of the actor it runs may block,
/// which a thread of Swift's cooperative pool must never do.
final class QueueExecutor: SerialExecutor {
    let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    /// Runs `body` as a job of this executor, on the calling thread, once the jobs before it are
    /// done (`DispatchQueue.sync`: no thread is woken when the queue is idle).
    func runSynchronously<T>(_ body: () throws -> T) rethrows -> T {
        try queue.sync(execute: body)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}

