import Foundation
import PostgresNIO
import RelataCore

/// Reads `postgres://user:password@host:port/database` into connection settings, and a
/// description of the server (host, port, database) for errors: never the credentials.
enum PostgresURL {
    static func parse(_ url: String, tls: PostgresConnection.Configuration.TLS) throws -> (PostgresConnection.Configuration, String) {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme ?? ""),
            let host = components.host, !host.isEmpty
        else {
            throw RelataError(
                code: .storageFailed, entityType: "Store",
                message: "not a PostgreSQL URL: expected postgres://user:password@host:port/database"
            )
        }
        let port = components.port ?? 5432
        let database = components.path.hasPrefix("/") ? String(components.path.dropFirst()) : components.path
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? "postgres"
        let password = components.password.flatMap { $0.removingPercentEncoding }
        let place = "PostgreSQL \(host):\(port)/\(database.isEmpty ? user : database)"
        let settings = PostgresConnection.Configuration(
            host: host, port: port, username: user, password: password, database: database.isEmpty ? nil : database, tls: tls
        )
        return (settings, place)
    }
}
