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
    @usableFromInline let merge: (_ old: T, _ new: T) -> T
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
        self.merge = merge
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
            strategies.reduce(new) { result, strategy in strategy.merge(old, result) }
        })
    }

    private init(replace: Void) {
        self.kind = .replace
        self.merge = { _, new in new }
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
        merge(old, new)
    }
}

extension MergeStrategy where T: EntityModelProtocol {
    /// The entity's ``EntityModelProtocol/fragmentMergeStrategy``: save as an incomplete value.
    public static var fragment: MergeStrategy<T> { T.fragmentMergeStrategy.named(.fragment) }

    /// The entity's ``EntityModelProtocol/defaultMergeStrategy``.
    public static var `default`: MergeStrategy<T> { T.defaultMergeStrategy.named(.default) }
}
