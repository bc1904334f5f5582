import Foundation
import PostgresNIO

// Faults the tests cause on purpose: a lost listener, a server restart.
extension PostgresBackend {
    /// Ends every connection listening to this schema's commits, as a network fault would (tests).
    package func terminateListeners() async throws {
        try await runOffPool("SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity WHERE query ILIKE '%LISTEN%\(tables.channel)%' AND pid <> pg_catalog.pg_backend_pid()")
    }

    /// Ends every other connection to the database, as a server restart would (tests).
    package func terminateOtherConnections() async throws {
        try await runOffPool("SELECT pg_catalog.pg_terminate_backend(pid) FROM pg_catalog.pg_stat_activity WHERE datname = pg_catalog.current_database() AND pid <> pg_catalog.pg_backend_pid()")
    }

    /// `search_path` as the connection for writes and a connection for reads see it (tests).
    package func searchPaths() throws -> [String] {
        func show(_ connection: PostgresConnection) throws -> String {
            let rows = try connection.query(PostgresQuery(unsafeSQL: "SHOW search_path"), logger: logger).answer(from: connection)
            return try rows.first?.decode(String.self) ?? ""
        }
        let onWrites = try show(connection())
        let onReads = try readers.withConnection(make: { try self.connect(id: 3) }) { try show($0) }
        return [onWrites, onReads]
    }

    /// Runs `sql` on a dispatch thread: waiting for the driver never blocks Swift's cooperative pool.
    func runOffPool(_ sql: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    let connection = try self.connection()
                    _ = try connection.query(PostgresQuery(unsafeSQL: sql), logger: self.logger).answer(from: connection)
                })
            }
        }
    }
}

extension PostgresBackend {
    /// How many connections reads hold open now, idle or in use (tests).
    package var readerConnectionCount: Int { readers.openCount }
}
