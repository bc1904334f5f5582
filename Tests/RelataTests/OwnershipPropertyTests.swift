import PropertyBased
import Relata
import Testing

/// Long random sequences over the ownership models — declared `.cascadeOrphans` children, dynamic
/// `owns`/`free` relationships, a `.deny` relation, a unique relation and aliases — checked after
/// every step against ``OwnershipReference`` and `checkInvariants()`.
@Suite("Ownership invariants (property-based)")
struct OwnershipPropertyTests {
    @Test("Random ownership, deny, unique and dynamic operations keep the context equal to the reference")
    func randomSequences() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...1_000_000).array(of: 1...50)) { codes in
            checkSequence(
                codes, reference: OwnershipReference(),
                apply: { try Self.apply($0, to: &$1, &$2) }, check: { try Self.check($0, against: $1, after: $2) }
            )
        }
    }

    struct Mismatch: Error, CustomStringConvertible {
        let description: String
    }

    static func pick<T>(_ values: [T], _ r: Int) -> T { values[r % values.count] }

    static func save(_ entity: PoolEntity, in context: inout Context) throws {
        switch entity {
        case .node(let id): try Node(id: id).save(to: &context)
        case .drawer(let id): try Drawer(id: id).save(to: &context)
        case .sheet(let id): try Sheet(id: id).save(to: &context)
        case .account: try Account(id: "acc").save(to: &context)
        case .invoice: try Invoice(id: "inv").save(to: &context)
        }
    }

    static func delete(_ entity: PoolEntity, in context: inout Context) throws {
        switch entity {
        case .node(let id): try Node.delete(id: id, from: &context)
        case .drawer(let id): try Drawer.delete(id: id, from: &context)
        case .sheet(let id): try Sheet.delete(id: id, from: &context)
        case .account: try Account.delete(id: "acc", from: &context)
        case .invoice: try Invoice.delete(id: "inv", from: &context)
        }
    }

    /// Runs `body`, which must throw a `RelataError` with `code` exactly when `expected` and
    /// then leave the context as it was.
    static func expect(
        _ code: RelataError.Code, when expected: Bool, _ context: inout Context, _ what: String,
        _ body: (inout Context) throws -> Void
    ) throws {
        let before = context
        do {
            try body(&context)
            if expected { throw Mismatch(description: "\(what) should throw \(code)") }
        } catch let error as RelataError where error.code == code && expected {
            try check(context, equals: before, what)
        }
    }

    static func check(_ context: Context, equals before: Context, _ what: String) throws {
        for entity in PoolEntity.owners + [.invoice] {
            let now = context.dynamicRelations(of: entity.reference), then = before.dynamicRelations(of: entity.reference)
            guard now == then, entity.reference.exists(in: context) == entity.reference.exists(in: before) else {
                throw Mismatch(description: "\(what) threw but changed \(entity)")
            }
        }
    }

    static func apply(_ code: Int, to context: inout Context, _ reference: inout OwnershipReference) throws -> String {
        let r = code / 10
        let a = pick(PoolEntity.owners, r), b = pick(PoolEntity.owners, r / 13)
        switch code % 10 {
        case 0:
            // A node's children, replaced (saving them if needed).
            let id = pick(["n0", "n1", "n2", "n3", "n4"], r)
            let kids = ["n0", "n1", "n2", "n3", "n4"].enumerated().filter { (r / 5) & (1 << $0.offset) != 0 && $0.element != id }
                .map(\.element)
            let appending = r % 3 == 0
            if appending {
                try Node(id: id, children: .appending(relation: kids.map { Node(id: $0) })).save(to: &context)
            } else {
                try Node(id: id, children: .relation(kids.map { Node(id: $0) })).save(to: &context)
            }
            for node in [id] + kids { reference.alive.insert(.node(node)) }
            var list = appending ? reference.children[id] ?? [] : []
            for kid in kids where !list.contains(kid) { list.append(kid) }
            reference.children[id] = list.isEmpty ? nil : list
            return "node \(id) children \(appending ? "+" : "=")\(kids)"
        case 1:
            try save(a, in: &context)
            reference.alive.insert(a)
            return "save \(a)"
        case 2, 3:
            let kind: DynamicRelationKind = code % 10 == 2 ? (r % 2 == 0 ? .owns : .ownedBy) : .free
            let valid = a != b && reference.alive.contains(a) && reference.alive.contains(b)
            let failure: RelataError.Code = a == b ? .invalidRelation : .entityNotFound
            try expect(failure, when: !valid, &context, "relate \(a) \(kind) \(b)") {
                try $0.relate(a.reference, kind, b.reference)
            }
            if valid {
                switch kind {
                case .owns: reference.owns.insert([a, b])
                case .ownedBy: reference.owns.insert([b, a])
                case .free: reference.free.insert([a, b])
                }
            }
            return "relate \(a) \(kind) \(b)"
        case 4:
            let kind = pick(DynamicRelationKind.allCases, r)
            let existed = context.unrelate(a.reference, kind, b.reference)
            let expected =
                switch kind {
                case .owns: reference.owns.remove([a, b]) != nil
                case .ownedBy: reference.owns.remove([b, a]) != nil
                case .free: reference.free.remove([a, b]) != nil
                }
            if existed != expected { throw Mismatch(description: "unrelate \(a) \(kind) \(b) returned \(existed)") }
            return "unrelate \(a) \(kind) \(b)"
        case 5, 6:
            let denied = reference.alive.contains(a) && reference.isDenied(a)
            try expect(.deleteDenied, when: denied, &context, "delete \(a)") { try delete(a, in: &$0) }
            if !denied { reference.erase(a) }
            return "delete \(a)\(denied ? " (denied)" : "")"
        case 7:
            if r % 3 == 0 {
                try Invoice.delete(id: "inv", from: &context)
                reference.erase(.invoice)
                return "delete invoice"
            }
            try Account(id: "acc", invoices: .relation([Invoice(id: "inv")])).save(to: &context)
            reference.alive.formUnion([.account, .invoice])
            reference.accountHasInvoice = true
            return "account invoices = [inv]"
        case 8:
            // Unique relation: a movie's prequel is linked by at most one movie.
            let movie = pick(["m0", "m1", "m2"], r), prequel = pick(["p0", "p1"], r / 3)
            let taken = reference.prequel.contains { $0.key != movie && $0.value == prequel }
            try expect(.uniqueViolation, when: taken, &context, "movie \(movie) prequel \(prequel)") {
                try Movie(id: movie, title: movie, prequel: .relation(Movie(id: prequel, title: prequel))).save(to: &$0)
            }
            if !taken {
                reference.movies.formUnion([movie, prequel])
                reference.prequel[movie] = prequel
            }
            return "movie \(movie) prequel \(prequel)\(taken ? " (taken)" : "")"
        default:
            let movie = pick(["m0", "m1", "m2", "p0", "p1"], r)
            try Movie.delete(id: movie, from: &context)
            reference.movies.remove(movie)
            reference.prequel[movie] = nil
            reference.prequel = reference.prequel.filter { $0.value != movie }
            return "delete movie \(movie)"
        }
    }

    static func check(_ context: Context, against reference: OwnershipReference, after operation: String) throws {
        try context.checkInvariants()
        func expect<T: Equatable>(_ actual: T, _ expected: T, _ what: String) throws {
            guard actual == expected else {
                throw Mismatch(description: "after \(operation): \(what) is \(actual), expected \(expected)")
            }
        }
        for entity in PoolEntity.owners + [.invoice] {
            try expect(entity.reference.exists(in: context), reference.alive.contains(entity), "\(entity) stored")
            let ref = entity.reference
            try expect(Set(context.related(ref, .owns)), Set(reference.owns.filter { $0[0] == entity }.map { $0[1].reference }), "\(entity) owns")
            try expect(Set(context.related(ref, .ownedBy)), Set(reference.owns.filter { $0[1] == entity }.map { $0[0].reference }), "\(entity) ownedBy")
            try expect(
                Set(context.related(ref, .free)),
                Set(reference.free.filter { $0.contains(entity) }.flatMap { $0.subtracting([entity]) }.map(\.reference)),
                "\(entity) free"
            )
            // Aliases resolve exactly while the entity is stored.
            if case .node(let id) = entity {
                try expect(context.optionalInstance(from: Alias<Node>(id)) != nil, reference.alive.contains(entity), "alias to \(id)")
                try expect(context.ids(of: id, \Node.$children), reference.children[id] ?? [], "\(id).children")
            }
        }
        try expect(context.ids(of: "acc", \Account.$invoices), reference.accountHasInvoice ? ["inv"] : [], "acc.invoices")
        try expect(Set(context.ids(of: Movie.self)), reference.movies, "movies")
        for movie in ["m0", "m1", "m2", "p0", "p1"] {
            try expect(context.ids(of: movie, \Movie.$prequel).first, reference.prequel[movie], "\(movie).prequel")
        }
    }
}
