/// Makes a struct an entity: generates its `EntityModelProtocol` conformance.
///
/// ```swift
/// @EntityModel
/// struct Attachment {
///     let id: String
///     var kind: Kind
///
///     @Relationship(.required, inverse: \.attachment)
///     var message: Message?
/// }
/// ```
///
/// expands to (abridged):
///
/// ```swift
/// struct Attachment {
///     …
///     init(id: String, kind: Kind, message: Relation<Message, Relations.Mutual, Relations.ToOne, Relations.Required> = .none) { … }
/// }
///
/// extension Attachment: EntityModelProtocol {
///     static var __relata_message: RelationDescriptor<Attachment, Message> { … }   // ordinal, inverse, delete rule
///     func save(to context: inout Context, options: MergeStrategy<Attachment>) throws { … }
///     func delete(from context: inout Context) throws { … }
///     mutating func normalize() { self.$message = .none }
///     static var patch: MergeStrategy<Attachment> { MergeStrategy(/* .patch(\.x) per optional var */) }
///     …
/// }
/// ```
///
/// The memberwise initialiser takes every stored property in order; relation parameters are
/// `Relation` values defaulting to `.none`, optional `var`s default to `nil`. It is generated
/// only when the struct declares no initialiser of its own. A mutual relation whose inverse is
/// not a mutual relation back to this type does not compile.
@attached(member, names: named(init), arbitrary)
@attached(extension, conformances: EntityModelProtocol, names: arbitrary)
public macro EntityModel() = #externalMacro(module: "RelataMacros", type: "EntityModelMacro")
