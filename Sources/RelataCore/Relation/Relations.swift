/// Phantom types that make the shape of a ``Relation`` part of its type.
///
/// `Relation<Entity, Directionality, Cardinality, Constraints>` uses one type from each pair, so
/// that a to-one setter cannot be used on a to-many relation, `.null` cannot be set on a required
/// relation, and a mutual relation must name a mutual inverse.
public enum Relations {
    /// Directionality: the relation has no inverse.
    public enum OneWay {}
    /// Directionality: the relation has an inverse on the target, kept in step on every change.
    public enum Mutual {}
    /// Cardinality: at most one target.
    public enum ToOne {}
    /// Cardinality: an ordered collection of distinct targets.
    public enum ToMany {}
    /// Constraint: a to-one relation that may be set to an explicit `.null`.
    public enum Optional {}
    /// Constraint: a relation that may not be set to an explicit `.null`.
    public enum Required {}
}
