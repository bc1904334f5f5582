import Foundation
import Relata
import Testing

/// Errors name the entity, id and relation involved, never a stored value: a row that does not
/// decode (here, a stored link that is not a valid URL) is reported without its text. And a store
/// path that is a symbolic link is followed: the store is the file it points to.
@Suite("Hardening: errors without stored values; symbolic links")
struct StoredValueSecrecyTests {
    @EntityModel
    struct Bookmark: Codable {
        let id: String
        var link: URL
        static var storedTypeName: String { "Tests.Bookmark" }
    }

    /// The same stored type, with the link as plain text (how a crafted row gets an invalid URL).
    @EntityModel
    struct RawBookmark: Codable {
        let id: String
        var link: String
        static var storedTypeName: String { "Tests.Bookmark" }
    }

    @Test("A stored URL that does not parse: the error names type and id, not the stored text")
    func invalidStoredURL() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let secret = "http://[secret-token-123"
        let raw = try await Store(path: path, entities: RawBookmark.self)
        try await raw.write { try RawBookmark(id: "b1", link: secret).save(to: &$0) }
        try await raw.close()
        let store = try await Store(path: path, entities: Bookmark.self)
        defer { Task { try await store.close() } }
        do {
            _ = try await store.read { $0.entity(Bookmark.self, id: "b1") }
            Issue.record("the row was read")
        } catch let error as RelataError {
            #expect(error.code == .undecodableRecord && error.id == "b1" && error.entityType == "Tests.Bookmark")
            #expect(!"\(error)".contains("secret-token"), "\(error)")
            #expect(!error.localizedDescription.contains("secret-token"))
        }
    }

    @Test("A store path that is a symbolic link opens the file it points to")
    func symbolicLink() async throws {
        let (directory, path) = try SQLiteStoreFileTests.temporaryPath()
        defer { try? FileManager.default.removeItem(at: directory) }
        let link = directory.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: path)
        let store = try await Store(path: link, entities: Bookmark.self)
        try await store.write { try Bookmark(id: "b", link: URL(string: "https://example.com")!).save(to: &$0) }
        try await store.close()
        let direct = try await Store(path: path, entities: Bookmark.self)
        #expect(direct.context.ids(of: Bookmark.self) == ["b"])
        try await direct.close()
        let attributes = try FileManager.default.attributesOfItem(atPath: link)
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is still a link")
    }
}
