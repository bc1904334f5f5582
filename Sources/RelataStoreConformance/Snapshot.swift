import Foundation
import Relata

/// A canonical text of everything a context holds for the conformance models: entities, every
/// relation's targets in order with their position keys, backlinks of one-way relations, dynamic
/// relationships. Two contexts hold the same when their texts are equal.
enum Snapshot {
    static func text(_ context: Context) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var lines: [String] = []
        func entities<E: EntityModelProtocol>(_ type: E.Type, links: (E.ID) -> Void) where E.ID == String {
            for id in context.ids(of: type).sorted() {
                let value = context.entity(type, id: id).flatMap { try? encoder.encode($0) }
                lines.append("\(type) \(id): \(value.map { String(decoding: $0, as: UTF8.self) } ?? "-")")
                links(id)
                let dynamic = context.dynamicRelations(of: EntityReference(type, id: id)).map(\.description).sorted()
                if !dynamic.isEmpty { lines.append("  dynamic: \(dynamic.joined(separator: ", "))") }
            }
        }
        func many<S: EntityModelProtocol, T, D, K>(_ source: S, _ keyPath: KeyPath<S, Relation<T, D, Relations.ToMany, K>>, _ name: String) {
            let positions = source.positions(of: keyPath, in: context).map { "\($0.id)@\($0.key)" }
            if !positions.isEmpty { lines.append("  \(name): \(positions.joined(separator: " "))") }
        }
        func one<S: EntityModelProtocol, T, D, K>(_ id: S.ID, _ keyPath: KeyPath<S, Relation<T, D, Relations.ToOne, K>>, _ name: String) {
            let target = context.ids(of: id, keyPath)
            if !target.isEmpty { lines.append("  \(name): \(target)") }
        }
        entities(Member.self) { id in
            many(Member(id: id, name: ""), \.$teams, "teams")
            lines.append("  posts authored: \(context.sources(linkingTo: id, through: \Post.$author).sorted())")
            lines.append("  posts read: \(context.sources(linkingTo: id, through: \Post.$readers).sorted())")
        }
        entities(Team.self) { id in
            let team = Team(id: id)
            many(team, \.$members, "members")
            many(team, \.$posts, "posts")
            many(team, \.$bills, "bills")
            many(team, \.$projects, "projects")
            one(id, \Team.$lead, "lead")
        }
        entities(Post.self) { id in
            one(id, \Post.$team, "team")
            one(id, \Post.$author, "author")
            many(Post(id: id, text: ""), \.$readers, "readers")
        }
        entities(Bill.self) { _ in }
        entities(Project.self) { id in
            lines.append("  owned by: \(context.sources(linkingTo: id, through: \Team.$projects).sorted())")
        }
        return lines.joined(separator: "\n")
    }
}
