import Relata
import Testing

@Suite("Relation values")
struct RelationValueTests {
    @Test("Each setter carries what it says: ids, entities, fragment and appending flags")
    func accessors() {
        let none: Relation<User, Relations.Mutual, Relations.ToMany, Relations.Optional> = .none
        #expect(none.isNone && !none.isNull && none.ids.isEmpty && none.entities.isEmpty)

        let null: Relation<Message, Relations.Mutual, Relations.ToOne, Relations.Optional> = .null
        #expect(null.isNull && !null.isNone && null.id == nil)

        let byID: Relation<User, Relations.OneWay, Relations.ToOne, Relations.Required> = .id("1")
        #expect(byID.id == "1" && byID.entity == nil && !byID.isAppending && !byID.isFragment)

        let fragment: Relation<User, Relations.Mutual, Relations.ToMany, Relations.Optional> = .fragment([.bob])
        #expect(fragment.isFragment && !fragment.isAppending && fragment.ids == ["1"])

        let appended: Relation<User, Relations.Mutual, Relations.ToMany, Relations.Optional> =
            .appending(fragment: [.alice])
        #expect(appended.isFragment && appended.isAppending && appended.entities.map(\.name) == ["Alice"])

        let appendedIDs: Relation<User, Relations.Mutual, Relations.ToMany, Relations.Optional> = .appending(ids: ["3"])
        #expect(appendedIDs.isAppending && !appendedIDs.isFragment && appendedIDs.ids == ["3"])
        #expect(Relation<User, Relations.OneWay, Relations.ToOne, Relations.Required>.id("1") == byID)
    }

    @Test("SwiftletModel's load state: isNone, isId, isFragment, isSlice")
    func loadState() {
        typealias Many = Relation<User, Relations.Mutual, Relations.ToMany, Relations.Optional>
        typealias One = Relation<User, Relations.OneWay, Relations.ToOne, Relations.Optional>
        #expect(One.id("1").isId && !One.relation(.bob).isId && !One.none.isId && !One.null.isId)
        #expect(One.fragment(.bob).isFragment && !One.fragment(.bob).isId)
        #expect(Many.ids(["1", "2"]).isId && !Many.ids(["1"]).isSlice)
        #expect(Many.appending(ids: ["3"]).isId && Many.appending(ids: ["3"]).isSlice)
        #expect(Many.appending(relation: [.alice]).isSlice && !Many.appending(relation: [.alice]).isId)
        #expect(!Many.relation([.alice]).isSlice && !Many.none.isSlice && Many.none.isNone)
    }
}
