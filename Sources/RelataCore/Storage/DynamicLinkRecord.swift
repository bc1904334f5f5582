/// One stored dynamic relationship (see ``DynamicRelationKind``): `source` owns `target`
/// (`kind` `"owns"`), or the two are freely related (`kind` `"free"`, stored once per pair).
public struct DynamicLinkRecord: Sendable, Hashable {
    /// `"owns"` or `"free"`.
    public var kind: String
    /// The source entity type's name.
    public var sourceType: String
    /// The source id, as text.
    public var source: String
    /// The target entity type's name.
    public var targetType: String
    /// The target id, as text.
    public var target: String

    /// A record.
    public init(kind: String, sourceType: String, source: String, targetType: String, target: String) {
        self.kind = kind
        self.sourceType = sourceType
        self.source = source
        self.targetType = targetType
        self.target = target
    }
}
