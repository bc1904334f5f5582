extension ObservationHub {
    /// The number of query observers (tests: an observer whose task ends is removed).
    package var observerCount: Int {
        state.withLock { $0.observers.count }
    }
}
