import PropertyBased
import Relata
import Testing

/// The ownership property test's operations — declared `.cascadeOrphans` children and dynamic
/// `owns`/`free` relationships (co-owners), a `.deny` relation, a unique relation, aliases, hooks
/// that save tombstones — run through a store's writes, each on a context over the write
/// transaction: after every write, a new context over storage and a whole load of it both equal
/// the naive reference model (which `OwnershipPropertyTests` checks against plain contexts), and
/// keep every invariant.
@Suite("Store: ownership, deny, unique and aliases over storage (property-based)")
struct StoreOwnershipPropertyTests {
    static let schema = EntitySchema(Node.self, Drawer.self, Sheet.self, Account.self, Invoice.self, Movie.self, Tombstone.self)

    @Test("Random ownership, deny, unique and dynamic operations through a store: its contexts over storage equal the reference", arguments: BackendKind.allCases)
    func overStorage(kind: BackendKind) async {
        await propertyCheck(count: kind == .memory ? 150 : 25, input: Gen.int(in: 0...1_000_000).array(of: 1...50)) { codes in
            await Self.check(codes, on: kind)
        }
    }

    /// Applies `codes` in batches of writes through a store of `kind`, checking after each.
    static func check(_ codes: [Int], on kind: BackendKind) async {
        guard let harness = try? StoreHarness(kind) else { return }
        defer { harness.remove() }
        guard let store = try? await harness.open(schema: schema) else {
            Issue.record("cannot open")
            return
        }
        var reference = OwnershipReference()
        var done: [String] = []
        var rest = codes[...]
        while !rest.isEmpty {
            let batch = Array(rest.prefix(1 + rest.first! % 4))
            rest = rest.dropFirst(batch.count)
            let start = reference
            do {
                let (after, steps) = try await store.write { context in
                    var reference = start
                    var steps: [String] = []
                    for code in batch { steps.append(try OwnershipPropertyTests.apply(code, to: &context, &reference)) }
                    return (reference, steps)
                }
                reference = after
                done += steps
                try OwnershipPropertyTests.check(store.context, against: reference, after: "\(done)")
                try OwnershipPropertyTests.check(loadedWhole(harness.backend(), schema: schema), against: reference, after: "\(done) (whole load)")
            } catch {
                Issue.record("\(error)")
                break
            }
        }
        try? await store.close()
    }
}
