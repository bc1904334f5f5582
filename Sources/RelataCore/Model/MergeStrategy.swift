/// How a saved entity is merged with the stored entity of the same id.
///
/// ```swift
/// try user.save(to: &context)                       // defaultMergeStrategy (.replace)
/// try user.save(to: &context, options: .fragment)   // fragmentMergeStrategy (patch)
/// try user.save(to: &context, options: MergeStrategy(.patch(\.profile), .append(\.tags)))
/// try user.save(to: &context, options: MergeStrategy { old, new in new })
/// ```
///
/// Relations are never merged by a strategy: they are saved link by link by their own rules
/// (`.none` keeps, `.null` unlinks, `.appending` adds).
public struct MergeStrategy<T> {
    @usableFromInline
    enum Kind {
        case replace
        case custom
    }

    /// How a replica replaying a ``ChangeSet`` finds this strategy again: strategies that are
    /// the entity's named ones travel by name and merge again on every replica; others travel
    /// as the value they produced on the writer.
    @usableFromInline
    enum ReplayName: String, Sendable {
        case replace
        case `default`
        case fragment
    }

    @usableFromInline let kind: Kind
    @usableFromInline let mergeValues: (_ old: T, _ new: T) -> T
    @usableFromInline var replayName: ReplayName?

    /// A strategy from a function of the stored (`old`) and saved (`new`) values.
    ///
    /// ```swift
    /// MergeStrategy<User> { old, new in
    ///     var new = new
    ///     new.name = new.name.isEmpty ? old.name : new.name
    ///     return new
    /// }
    /// ```
    public init(_ merge: @escaping (_ old: T, _ new: T) -> T) {
        self.kind = .custom
        self.mergeValues = merge
        self.replayName = nil
    }

    /// Applies `strategies` in order, each to the result of the previous one.
    public init(_ strategies: MergeStrategy<T>...) {
        self.init(strategies)
    }

    /// Applies `strategies` in order, each to the result of the previous one.
    public init(_ strategies: [MergeStrategy<T>]) {
        if strategies.allSatisfy({ if case .replace = $0.kind { true } else { false } }) {
            self = .replace
            return
        }
        self.init({ old, new in
            strategies.reduce(new) { result, strategy in strategy.mergeValues(old, result) }
        })
    }

    private init(replace: Void) {
        self.kind = .replace
        self.mergeValues = { _, new in new }
        self.replayName = .replace
    }

    /// This strategy, known to replicas by `name`.
    @usableFromInline
    func named(_ name: ReplayName) -> MergeStrategy<T> {
        var copy = self
        if copy.replayName != .replace { copy.replayName = name }
        return copy
    }

    /// The saved value replaces the stored one.
    public static var replace: MergeStrategy<T> { MergeStrategy(replace: ()) }

    /// Keeps the stored value of the property when the saved one is `nil`.
    public static func patch<Value>(_ keyPath: WritableKeyPath<T, Value?>) -> MergeStrategy<T> {
        MergeStrategy { old, new in
            guard new[keyPath: keyPath] == nil else { return new }
            var new = new
            new[keyPath: keyPath] = old[keyPath: keyPath]
            return new
        }
    }

    /// Appends the saved array to the stored one.
    public static func append<Value>(_ keyPath: WritableKeyPath<T, [Value]>) -> MergeStrategy<T> {
        MergeStrategy { old, new in
            var new = new
            new[keyPath: keyPath] = old[keyPath: keyPath] + new[keyPath: keyPath]
            return new
        }
    }

    /// Appends the saved array to the stored one; `nil` on either side counts as empty, and the
    /// result is `nil` only when both are.
    public static func append<Value>(_ keyPath: WritableKeyPath<T, [Value]?>) -> MergeStrategy<T> {
        MergeStrategy { old, new in
            guard let stored = old[keyPath: keyPath] else { return new }
            var new = new
            new[keyPath: keyPath] = stored + (new[keyPath: keyPath] ?? [])
            return new
        }
    }

    /// Merges `old` and `new` by this strategy.
    public func callAsFunction(_ old: T, _ new: T) -> T {
        mergeValues(old, new)
    }

    /// Merges the stored value `existing` with the saved one `new` by this strategy
    /// (SwiftletModel's spelling of ``callAsFunction(_:_:)``).
    public func merge(_ existing: T, new: T) -> T {
        mergeValues(existing, new)
    }

    /// Keeps the stored value when the saved one is `nil` (a strategy for an optional value).
    public static func patch<Value>() -> MergeStrategy<Value?> where T == Value? {
        MergeStrategy<Value?> { old, new in new ?? old }
    }

    /// The newer of the two values by `keyPath` wins, and `strategies` fill it from the other
    /// (SwiftletModel's `lastWriteWins`): when the saved value is newer, they merge the stored one
    /// into it; otherwise they merge the saved one into the stored one, which is kept.
    ///
    /// ```swift
    /// MergeStrategy<Note>.lastWriteWins(.patch(\.title), .append(\.tags), comparedBy: \.modifiedAt)
    /// ```
    public static func lastWriteWins<V: Comparable>(_ strategies: MergeStrategy<T>..., comparedBy keyPath: KeyPath<T, V>) -> MergeStrategy<T> {
        lastWriteWins(strategies, comparedBy: keyPath)
    }

    /// The newer of the two values by `keyPath` wins, and `strategies` fill it from the other.
    public static func lastWriteWins<V: Comparable>(_ strategies: [MergeStrategy<T>], comparedBy keyPath: KeyPath<T, V>) -> MergeStrategy<T> {
        MergeStrategy { old, new in
            if old[keyPath: keyPath] < new[keyPath: keyPath] {
                return strategies.reduce(new) { result, strategy in strategy.mergeValues(old, result) }
            }
            return strategies.reduce(old) { result, strategy in strategy.mergeValues(new, result) }
        }
    }
}

extension MergeStrategy where T: Comparable {
    /// The greater of the two values wins, and `strategies` fill it from the other (see
    /// ``lastWriteWins(_:comparedBy:)-(MergeStrategy<T>...,_)``).
    public static func lastWriteWins(_ strategies: MergeStrategy<T>...) -> MergeStrategy<T> {
        lastWriteWins(strategies, comparedBy: \.self)
    }
}

extension MergeStrategy where T: EntityModelProtocol {
    /// The entity's ``EntityModelProtocol/fragmentMergeStrategy``: save as an incomplete value.
    public static var fragment: MergeStrategy<T> { T.fragmentMergeStrategy.named(.fragment) }

    /// The entity's ``EntityModelProtocol/defaultMergeStrategy``.
    public static var `default`: MergeStrategy<T> { T.defaultMergeStrategy.named(.default) }
}
