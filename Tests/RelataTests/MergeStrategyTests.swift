import Relata
import Testing

@Suite("Merge strategies")
struct MergeStrategyTests {
    @Test("The default strategy replaces; .fragment patches every optional property")
    func replaceAndFragment() throws {
        var context = Context()
        try User(id: "1", name: "Bob", profile: .init(bio: "hi")).save(to: &context)
        try User(id: "1", name: "Bobby").save(to: &context, options: .fragment)
        #expect(context.entity(User.self, id: "1")?.profile == .init(bio: "hi"))
        #expect(context.entity(User.self, id: "1")?.name == "Bobby")
        try User(id: "1", name: "Robert").save(to: &context)
        #expect(context.entity(User.self, id: "1")?.profile == nil)
    }

    @Test("The generated patch covers every optional var, and composes with append")
    func composedStrategies() throws {
        var context = Context()
        try File(id: "f", size: 10, tags: ["a"]).save(to: &context)
        try File(id: "f", tags: ["b"]).save(to: &context, options: MergeStrategy(File.patch, .append(\.tags)))
        #expect(context.entity(File.self, id: "f")?.size == 10)
        #expect(context.entity(File.self, id: "f")?.tags == ["a", "b"])
        try File(id: "f", tags: ["c"]).save(to: &context, options: MergeStrategy(.patch(\.size)))
        #expect(context.entity(File.self, id: "f")?.tags == ["c"])
        #expect(context.entity(File.self, id: "f")?.size == 10)
    }

    @Test("A closure strategy sees the stored and the saved value")
    func closure() throws {
        var context = Context()
        try Folder(id: "f", name: "old").save(to: &context)
        let keepLonger = MergeStrategy<Folder> { old, new in
            (old.name?.count ?? 0) >= (new.name?.count ?? 0) ? old : new
        }
        try Folder(id: "f", name: "o").save(to: &context, options: keepLonger)
        #expect(context.entity(Folder.self, id: "f")?.name == "old")
        try Folder(id: "f", name: "longer").save(to: &context, options: keepLonger)
        #expect(context.entity(Folder.self, id: "f")?.name == "longer")
    }

    @Test("Related fragments merge with the target's fragment strategy; relations are never merged away")
    func relatedFragments() throws {
        var context = Context()
        try User(id: "1", name: "Bob", profile: .init(bio: "bio")).save(to: &context)
        try Chat(id: "c", users: .fragment([User(id: "1", name: "Bob")])).save(to: &context)
        #expect(context.entity(User.self, id: "1")?.profile == .init(bio: "bio"))
        try Chat(id: "c", users: .relation([User(id: "1", name: "Bob")])).save(to: &context)
        #expect(context.entity(User.self, id: "1")?.profile == nil)
        #expect(ids(context, "c", \Chat.$users) == ["1"])
    }

    @Test("Overridden defaultMergeStrategy and fragmentMergeStrategy are used")
    func overrides() throws {
        var context = Context()
        try Note(id: "n", title: "T", body: "B").save(to: &context)
        try Note(id: "n", title: nil, body: nil).save(to: &context)
        #expect(context.entity(Note.self, id: "n")?.title == "T", "default is patch")
        #expect(context.entity(Note.self, id: "n")?.body == "B")
        try Note(id: "n", title: nil, body: "new").save(to: &context, options: .fragment)
        #expect(context.entity(Note.self, id: "n")?.body == "Bnew", "fragment appends body")
    }
}

@EntityModel
struct Note: Codable, Equatable {
    let id: String
    var title: String?
    var body: String?

    static var defaultMergeStrategy: MergeStrategy<Note> { Note.patch }
    static var fragmentMergeStrategy: MergeStrategy<Note> {
        MergeStrategy { old, new in
            var new = new
            new.title = new.title ?? old.title
            new.body = (old.body ?? "") + (new.body ?? "")
            return new
        }
    }
}
