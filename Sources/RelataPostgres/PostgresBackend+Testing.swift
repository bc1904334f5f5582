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
        let onWrites = try show(connection().connection)
        let onReads = try readers.withConnection(make: { PostgresRestingConnection(try self.connect(.reads), begin: PostgresRestingConnection.readBegin) }) { try show($0.connection) }
        return [onWrites, onReads]
    }

    /// Runs `sql` on a dispatch thread (waiting for the driver never blocks Swift's cooperative
    /// pool), on a connection of its own: the connection for writes may rest in a transaction
    /// begun for the next write.
    func runOffPool(_ sql: String) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            DispatchQueue.global().async {
                continuation.resume(with: Result {
                    _ = try self.connection()
                    let connection = try self.connect(.writes)
                    defer { Closing.close(connection) }
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

extension PostgresBackend {
    /// A connection of this backend as `pg_stat_activity` shows it (tests).
    package struct Activity: Sendable, Equatable {
        /// `relata reads <schema>` or `relata writes <schema>`.
        package var name: String
        /// `idle`, `idle in transaction`, `active`…
        package var state: String
        /// Whether it holds a snapshot (`backend_xmin`), which keeps `VACUUM` from removing rows.
        package var holdsSnapshot: Bool
    }

    /// This backend's connections (by their `application_name`) as the server sees them, asked on
    /// a connection of its own (tests).
    package func activity() throws -> [Activity] {
        let probe = try connect(.writes)
        defer { Closing.close(probe) }
        var query = PostgresQuery(
            unsafeSQL: """
                SELECT application_name, state, backend_xmin IS NOT NULL FROM pg_catalog.pg_stat_activity
                WHERE application_name IN ($1, $2) AND pid <> pg_catalog.pg_backend_pid() ORDER BY application_name, state
                """)
        query.binds.append(ConnectionRole.reads.applicationName(schema: configuration.schema))
        query.binds.append(ConnectionRole.writes.applicationName(schema: configuration.schema))
        return try probe.query(query, logger: logger).answer(from: probe).map { row in
            let (name, state, holds) = try row.decode((String, String, Bool).self)
            return Activity(name: name, state: state, holdsSnapshot: holds)
        }
    }
}
