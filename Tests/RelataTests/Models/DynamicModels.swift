import Relata

// Models joined only by dynamic relationships (no declared relation between them).

@EntityModel
struct Drawer: Codable, Equatable {
    let id: String
    var name: String = ""
}

/// A file with an integer id; erasing it records a tombstone (the clean-up hook).
@EntityModel
struct Sheet: Codable, Equatable {
    let id: Int
    var path: String = ""

    func willDelete(from context: inout Context) throws {
        try Tombstone(id: "sheet \(id)").save(to: &context)
    }
}

@EntityModel
struct Tag: Codable, Equatable {
    let id: String
}
