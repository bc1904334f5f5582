import Relata
@testable import RelataCore
import Testing

@Suite("Errors")
struct RelataErrorTests {
    @Test("find throws entityNotFound naming the type and id")
    func notFound() throws {
        let context = Context()
        let error = #expect(throws: RelataError.self) { try context.find(User.self, id: "42") }
        #expect(error?.code == .entityNotFound)
        #expect(error?.entityType == "User")
        #expect(error?.id == "42")
        #expect(error?.description.contains("User") == true && error?.description.contains("42") == true)
    }

    @Test("A broken link is reported with entity, id and relation")
    func invariantError() throws {
        var context = Context()
        try Chat(id: "c", users: .ids(["1"])).save(to: &context)
        try context.checkInvariants()
        // Corrupt the store behind the API's back: a forward link with no inverse.
        context.mutableTable(Chat.self).linkTable(Chat.__relataKey_users, String.self).place("ghost", in: "c", at: PositionKey("a5")!)
        let error = #expect(throws: RelataError.self) { try context.checkInvariants() }
        #expect(error?.code == .invalidRelation)
        #expect(error?.entityType == "Chat")
        #expect(error?.id == "c")
        #expect(error?.relation == "users")
        #expect(error?.message.contains("ghost") == true)
        #expect(RelataError.Code.invalidRelation.description == "invalidRelation")
        let custom = RelataError(code: .init("custom"), entityType: "Chat", id: "c", relation: "users", message: "m")
        #expect(custom.description == "custom: m [entity Chat, id c, relation users]")
    }

    @Test("print(error), interpolation and localizedDescription name the code, type, id and relation")
    func printedForms() throws {
        var context = Context()
        try Account(id: "t", invoices: .relation([Invoice(id: "i")])).save(to: &context)
        let error = #expect(throws: RelataError.self) { try Account.delete(id: "t", from: &context) }
        let thrown = try #require(error as (any Error)?)
        for text in [thrown.localizedDescription, "\(thrown)", String(describing: thrown)] {
            #expect(text.contains("deleteDenied"), "\(text)")
            #expect(text.contains("entity Account, id t"), "\(text)")
            #expect(text.contains("invoices"), "\(text)")
            #expect(!text.contains("RelataError error"), "\(text)")
        }
    }

    @Test("Errors thrown by hooks reach the caller unchanged")
    func hookErrors() throws {
        var context = Context()
        try File(id: "locked").save(to: &context)
        let error = #expect(throws: RelataError.self) { try File(id: "locked").delete(from: &context) }
        #expect(error?.code == RelataError.Code("locked"))
    }
}
