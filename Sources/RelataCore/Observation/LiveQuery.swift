import Observation
import Synchronization

/// A query's current value, kept up to date on the main actor: an `@Observable` object for
/// SwiftUI (and anything else that uses the Observation framework).
///
/// ```swift
/// struct ChatView: View {
///     @State private var messages: LiveQuery<[Message]>
///
///     init(store: Store, chat: Chat.ID) {
///         _messages = State(initialValue: LiveQuery(store) { context in
///             Chat.query(chat, in: context).related(\.$messages).resolve()
///         })
///     }
///
///     var body: some View {
///         List(messages.value) { Text($0.text) }
///     }
/// }
/// ```
///
/// The value is computed at once from the store's current state, then again after each commit
/// that touched what the query read (`Store.observe(_:)`); commits
/// of other processes included. Equal values are not assigned again, so views do not redraw for
/// nothing. Releasing the object stops the observation.
@MainActor
@Observable
public final class LiveQuery<Value: Sendable & Equatable> {
    /// The query's value as of the last commit observed.
    public private(set) var value: Value

    @ObservationIgnored private let subscription = Subscription()

    /// Starts observing `query` on `store`.
    ///
    /// - Parameters:
    ///   - store: The store to read.
    ///   - query: What to compute from the store's state.
    public init(_ store: Store, _ query: @escaping @Sendable (Context) -> Value) {
        value = query(store.context)
        let observation = store.observe(query)
        subscription.start { [weak self] in
            do {
                for try await value in observation {
                    guard let self else { return }
                    if self.value != value { self.value = value }
                }
            } catch {
                // `query` does not throw: the observation only ends when cancelled.
            }
        }
    }
}

/// The task that feeds a ``LiveQuery``; cancelled when the query is released.
private final class Subscription: Sendable {
    private let task = Mutex<Task<Void, Never>?>(nil)

    func start(_ body: @escaping @MainActor @Sendable () async -> Void) {
        task.withLock { $0 = Task { @MainActor in await body() } }
    }

    deinit {
        task.withLock { $0?.cancel() }
    }
}
