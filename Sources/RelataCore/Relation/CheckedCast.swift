/// `value` as a `T`, which it must be: a relation visitor of `Entity` is handed descriptors whose
/// source type is `Entity`, so an id of `Entity` is an id of the descriptor's source type, but the
/// compiler cannot know it.
///
/// A checked cast, never a reinterpretation of memory: a hand-written conformance whose
/// `_relataVisitRelations` hands over another type's descriptors stops the program with a message
/// naming the types. Where the types are known to be equal after specialization (the store paths
/// `@EntityModel` compiles in the model's module), the cast costs nothing.
@inlinable
func checkedCast<Value, T>(_ value: Value, to _: T.Type, in relation: StaticString) -> T {
    if let cast = value as? T { return cast }
    preconditionFailure(
        "\(Value.self) is not \(T.self) in relation \(relation): _relataVisitRelations must visit only the type's own relations"
    )
}
