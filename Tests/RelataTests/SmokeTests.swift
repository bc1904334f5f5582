import Testing
@testable import Relata

@Test func smoke() throws {
    var context = Context()
    let chat = Chat(id: "1", users: .relation([User(id: "1", name: "Bob"), User(id: "2", name: "Alice")]))
    try chat.save(to: &context)
    #expect(context.count(of: User.self) == 2)
}
