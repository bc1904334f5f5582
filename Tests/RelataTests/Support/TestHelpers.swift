import Foundation
import Relata
import Testing

extension User {
    static let bob = User(id: "1", name: "Bob")
    static let alice = User(id: "2", name: "Alice")
    static let john = User(id: "3", name: "John")
}

/// Parses JSON text into Foundation objects so two documents compare regardless of formatting.
func jsonObject(_ text: String) throws -> NSObject {
    try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as! NSObject
}

/// The ids a relation resolves to, for compact assertions.
func ids<Source: EntityModelProtocol, Target, D, C, K>(
    _ context: Context, _ id: Source.ID, _ keyPath: KeyPath<Source, Relation<Target, D, C, K>>
) -> [Target.ID] {
    context.ids(of: id, keyPath)
}

/// Applies each code of a random sequence to a context and a reference model, checking after every
/// step; records the first failure (with the operation that caused it) and stops.
func checkSequence<Reference>(
    _ codes: [Int], reference initial: Reference,
    apply: (Int, inout Context, inout Reference) throws -> String,
    check: (Context, Reference, String) throws -> Void
) {
    var context = Context()
    var reference = initial
    for code in codes {
        do {
            let description = try apply(code, &context, &reference)
            try check(context, reference, description)
        } catch {
            Issue.record("after operation \(code): \(error)")
            return
        }
    }
}

/// Polls `condition` every 5 ms until it holds or `seconds` pass (the caller then checks it).
func waitUntil(seconds: Int, _ condition: () -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !condition(), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
}

extension Array where Element == Int {
    /// Random operation codes cut into the batches a property test writes one at a time: each
    /// batch is `1 + first % most` codes long (the last may be shorter).
    func batches(upTo most: Int) -> [[Int]] {
        var batches: [[Int]] = [], rest = self[...]
        while let first = rest.first {
            let batch = Array(rest.prefix(1 + first % most))
            rest = rest.dropFirst(batch.count)
            batches.append(batch)
        }
        return batches
    }
}
