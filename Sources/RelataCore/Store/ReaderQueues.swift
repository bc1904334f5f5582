import Dispatch
import Synchronization

/// Where a store's `async` reads run: a few serial dispatch queues, each job on the least busy.
///
/// A serial queue runs on a thread of its own while it has work (Dispatch's "overcommit" queues,
/// as GRDB's reader queues are), so a read blocked on storage never holds one of the threads of
/// Swift's cooperative pool — which, on Linux, are those of Dispatch's global concurrent queues:
/// a concurrent queue of the store's own would share them. At most ``width`` reads run at once
/// (PostgreSQL's reader pool keeps 4 connections); more wait in the queues, not on a thread.
final class ReaderQueues: Sendable {
    private let queues: [DispatchQueue]
    /// How many jobs each queue has, queued or running.
    private let load: Mutex<[Int]>

    /// How many reads run at once at most.
    var width: Int { queues.count }

    init(label: String, width: Int) {
        queues = (0..<max(1, width)).map { DispatchQueue(label: "\(label).\($0)", qos: .userInitiated) }
        load = Mutex(Array(repeating: 0, count: max(1, width)))
    }

    /// Runs `job` on the least busy queue, then gives `deliver` its result.
    ///
    /// The queue counts as free again before `deliver` runs: `deliver` resumes the caller, whose
    /// next read would otherwise find this queue still busy and take another — one whose thread
    /// has gone idle and must be woken (a back-to-back `await store.read` took 26 µs, 10 µs
    /// on one queue).
    func run<T: Sendable>(_ job: @escaping @Sendable () -> T, then deliver: @escaping @Sendable (T) -> Void) {
        let index = load.withLock { load in
            let index = load.indices.min { load[$0] < load[$1] }!
            load[index] += 1
            return index
        }
        queues[index].async {
            let result = job()
            self.load.withLock { $0[index] -= 1 }
            deliver(result)
        }
    }
}
