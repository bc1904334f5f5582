import RelataCore

extension Store {
    /// Opens (or creates) a store in the PostgreSQL database at `url` and loads it.
    ///
    /// ```swift
    /// let store = try await Store(postgres: "postgres://app:secret@127.0.0.1:5432/app", entities: User.self, Chat.self)
    /// ```
    ///
    /// - Parameters:
    ///   - url: `postgres://user:password@host:port/database`.
    ///   - configuration: Schema, TLS, busy timeout and log retention.
    ///   - entities: The entity types the store holds.
    /// - Throws: `RelataError` when the server cannot be reached or the schema holds something
    ///   else; the message names host, port and database, never the credentials.
    public convenience init(
        postgres url: String, configuration: PostgresBackend.Configuration = PostgresBackend.Configuration(),
        entities: any EntityModelProtocol.Type...
    ) async throws {
        try await self.init(backend: PostgresBackend.connect(url: url, configuration: configuration), schema: EntitySchema(entities))
    }
}
